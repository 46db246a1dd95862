// Navigating a routed page (route-through-client.ts) to a URL: the http client follows and checks redirects, and
// a redirected navigation is aborted and taken to where it ended, so the page keeps its real URL. Shared by the
// crawl's renders and /screenshot. Failures are values: the navigation's own failure (a refused address is
// PLB_TARGET_FORBIDDEN), PLB_TARGET_TIMEOUT past the deadline, PLB_UPSTREAM_FAILED otherwise.

import type { Schemas } from "@plumbline-kit/contract";
import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { Page } from "playwright-core";
import type { Navigation } from "./route-through-client.ts";

export type WaitUntil = NonNullable<Schemas["ScreenshotRequest"]["wait_until"]>;

const MAX_HOPS = 5;

/**
 * Playwright's TimeoutError, told by its name: playwright-core is loaded only when Chromium first starts
 * (browser-pool.ts), not with every module that handles its errors.
 */
export const isBrowserTimeout = (err: unknown): boolean => err instanceof Error && err.name === "TimeoutError";
const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];

/** The main document's status, once the page is `waitUntil`; `deadline` is a Date.now() value. */
export async function navigate(
  page: Page,
  nav: Navigation,
  url: string,
  waitUntil: WaitUntil,
  deadline: number,
): Promise<EngineResult<number>> {
  for (let target = url, hops = 0; ; hops++) {
    nav.redirectedTo = null;
    const timeout = deadline - Date.now();
    if (timeout <= 0) return timedOut(url);
    try {
      const response = await page.goto(target, { waitUntil, timeout });
      return { ok: true, value: response?.status() ?? 0 };
    } catch (err) {
      if (nav.failure) return { ok: false, code: nav.failure.code, message: nav.failure.message };
      if (isBrowserTimeout(err) || Date.now() >= deadline) return timedOut(url);
      if (!nav.redirectedTo || hops >= MAX_HOPS)
        return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The page ${url} did not load: ${firstLine(err)}` };
      target = nav.redirectedTo;
    }
  }
}

const timedOut = (url: string) =>
  ({ ok: false, code: "PLB_TARGET_TIMEOUT", message: `The page ${url} did not load in time` }) as const;

/**
 * A page that left its document after loading: a script navigated it to an address the guard refused (Chromium then
 * shows its own error page, which must never be returned as content), or to something that is not a web page.
 */
export function leftThePage(page: Page, nav: Navigation): EngineResult<never> | null {
  if (nav.failure) return { ok: false, code: nav.failure.code, message: nav.failure.message };
  const at = page.url();
  if (/^https?:/.test(at)) return null;
  return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The page navigated away to ${at.slice(0, 200)}` };
}
