// The person in the OAuth flow, played by headless Chromium (interface-spec "OAuth flow" 6: "The account owner
// signs in or creates an account and approves access"): it opens the authorization URL, signs in on whatever form
// asks for a password, approves on the consent screen, and stops when the browser is sent to the client's redirect
// URI, whose URL it returns. Generic over the target's pages: a password field and the text field before it, and a
// button labelled allow/approve/authorize/accept/consent/continue. playwright-core is loaded only when needed.

import { resolveChromium } from "@plumbline-kit/contract/chromium";

export interface ConsentOutcome {
  /** the URL the browser was redirected to (the client's redirect URI with code or error), or null */
  redirectedTo: string | null;
  /** what happened, page by page, for the report */
  trail: string[];
  problem?: string;
}

const APPROVE = /^(allow|approve|authori[sz]e|accept|consent|continue|yes)\b/i;
const SIGN_IN = /sign.?in|log.?in|continue|submit/i;
const STEPS = 6;

export interface ConsentBrowser {
  consent(o: { authorizeUrl: string; redirectUri: string; timeoutMs?: number }): Promise<ConsentOutcome>;
  close(): Promise<void>;
}

/** One browser for a run's consents (launched on first use); each consent gets a fresh context (no session kept). */
export function consentBrowser(o: { user: string; password: string; chromiumPath?: string }): ConsentBrowser {
  let launched: Promise<import("playwright-core").Browser> | null = null;
  const launch = async () => {
    // an optional peer: the consent checks say which package to add when it is missing
    const playwright = await import("playwright-core").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ERR_MODULE_NOT_FOUND")
        throw new Error(
          "the browser consent needs playwright-core, which is not installed: npm install --save-dev playwright-core",
        );
      throw err;
    });
    const { executablePath, env } = await resolveChromium(o.chromiumPath);
    return playwright.chromium.launch({
      executablePath,
      env,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
  };
  return {
    async consent(c) {
      launched ??= launch();
      let browser: import("playwright-core").Browser;
      try {
        browser = await launched;
      } catch (err) {
        return {
          redirectedTo: null,
          trail: [],
          problem: `no headless Chromium: ${(err as Error).message.split("\n")[0]}`,
        };
      }
      const context = await browser.newContext();
      try {
        return await consentIn(context, { ...o, ...c });
      } finally {
        await context.close();
      }
    },
    async close() {
      if (launched) await (await launched.catch(() => null))?.close();
    },
  };
}

async function consentIn(
  context: import("playwright-core").BrowserContext,
  o: { authorizeUrl: string; redirectUri: string; user: string; password: string; timeoutMs?: number },
): Promise<ConsentOutcome> {
  const trail: string[] = [];
  {
    const page = await context.newPage();
    page.setDefaultTimeout(o.timeoutMs ?? 15_000);
    let redirectedTo: string | null = null;
    const origin = new URL(o.redirectUri);
    // the client's redirect listener: the browser's request to it is seen (it goes nowhere: nothing listens there,
    // and Chromium does not let a route intercept the target of a redirect)
    const listener = `${origin.origin}${origin.pathname}`;
    page.on("request", (r) => {
      if (!redirectedTo && r.url().startsWith(listener)) redirectedTo = r.url();
    });
    await page.goto(o.authorizeUrl);
    for (let step = 0; step < STEPS && !redirectedTo; step++) {
      await page.waitForLoadState().catch(() => undefined);
      if (redirectedTo) break;
      const password = page.locator("input[type=password]").first();
      if (await password.count()) {
        trail.push(`sign-in page ${page.url()}`);
        const login = page.locator("input[type=text], input[type=email], input:not([type])").first();
        if (await login.count()) await login.fill(o.user);
        await password.fill(o.password);
        const submit = page.locator("button[type=submit], input[type=submit]").filter({ hasText: SIGN_IN });
        await Promise.all([
          page.waitForNavigation().catch(() => undefined),
          (await submit.count()) ? submit.first().click() : password.press("Enter"),
        ]);
        if (await page.locator("input[type=password]").count()) {
          const text = (await page.locator("body").textContent())?.replace(/\s+/g, " ").slice(0, 200);
          return { redirectedTo, trail, problem: `signing in as ${o.user} failed: ${text}` };
        }
        continue;
      }
      const approve = page.getByRole("button", { name: APPROVE });
      if (await approve.count()) {
        trail.push(`consent page ${page.url()}`);
        await Promise.all([page.waitForNavigation().catch(() => undefined), approve.first().click()]);
        continue;
      }
      const text = (await page.locator("body").textContent())?.replace(/\s+/g, " ").slice(0, 200);
      return { redirectedTo, trail, problem: `neither a sign-in form nor a consent button at ${page.url()}: ${text}` };
    }
    return redirectedTo
      ? { redirectedTo, trail }
      : { redirectedTo, trail, problem: `no redirect to ${o.redirectUri} after ${STEPS} pages` };
  }
}
