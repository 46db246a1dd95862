// Creates an account on the reference's sign-up page over plain HTTP, as a browser would (the CSRF token from the
// form, its cookie sent back), so a test can hand the conformance suite an account to consent with
// (--oauth-user/--oauth-password) without importing the reference. Test glue.

/** Returns the signed-in session's cookie header (name=value pairs). */
export async function signUpOverHttp(baseUrl: string, login: string, password: string): Promise<string> {
  const page = await fetch(`${baseUrl}/account/signup`);
  const html = await page.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookies = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!csrf) throw new Error(`no CSRF token on ${baseUrl}/account/signup (${page.status})`);
  const res = await fetch(`${baseUrl}/account/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
    body: new URLSearchParams({ _csrf: csrf, login, password }).toString(),
  });
  const text = await res.text(); // read to the end, so the connection goes back to the pool
  if (res.status !== 303) throw new Error(`sign-up as ${login} answered ${res.status}: ${text.slice(0, 300)}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
