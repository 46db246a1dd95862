// The person of the OAuth flow over plain HTTP (no browser): follows the authorization request's redirects with a
// cookie jar, signs in on the form that asks for a password and approves on the consent form, both with their CSRF
// token, and returns the URL it was finally sent to (the client's redirect URI). For fast tests of the reference's
// authorization server; the browser-driven path is tested end to end elsewhere. Test glue.

export interface CookieJar {
  header(): string;
  take(res: Response): void;
}

export function cookieJar(): CookieJar {
  const jar = new Map<string, string>();
  return {
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
    take(res) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const i = pair.indexOf("=");
        const name = pair.slice(0, i).trim();
        const value = pair.slice(i + 1);
        if (value === "" || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
        else jar.set(name, value);
      }
    },
  };
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** Walks from the authorization URL to the redirect URI; returns that URL (with code or error). */
export async function consentOverHttp(o: {
  authorizeUrl: string;
  redirectUri: string;
  user: string;
  password: string;
  jar?: CookieJar;
  deny?: boolean;
}): Promise<string> {
  const jar = o.jar ?? cookieJar();
  let url = o.authorizeUrl;
  let method = "GET";
  let body: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(o.redirectUri)) return url;
    const res = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body,
    });
    jar.take(res);
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer(); // read to the end, so the connection goes back to the pool
      url = new URL(location, url).href;
      method = "GET";
      body = undefined;
      continue;
    }
    const html = await res.text();
    const csrf = field(html, "_csrf");
    const forms = [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);
    if (!csrf || forms.length === 0) throw new Error(`no form at ${url} (${res.status}): ${html.slice(0, 300)}`);
    method = "POST";
    if (html.includes('type="password"')) {
      url = new URL(forms[0], url).href;
      body = new URLSearchParams({ _csrf: csrf, login: o.user, password: o.password }).toString();
    } else {
      // the consent page: Allow is the first form, Deny the second
      url = new URL(forms[o.deny ? 1 : 0], url).href;
      body = new URLSearchParams({ _csrf: csrf }).toString();
    }
  }
  throw new Error(`no redirect to ${o.redirectUri} after 20 steps`);
}
