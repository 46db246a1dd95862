// One render in a fresh browser context (no cookie or cache crosses from one caller to the next): navigate, let the
// page's scripts write their text, read the DOM back. Every request goes through the http client
// (route-through-client.ts). Failures are values.
import type { Browser } from "playwright-core";
import type { EngineResult } from "../platform/engines.ts";
import type { HttpClient } from "./http-client.ts";
import { type Navigation, routeThroughClient } from "./route-through-client.ts";

export interface RenderedPage {
  /** the URL the page ended on */
  url: string;
  status: number;
  html: string;
}

export interface RenderSettings {
  http: HttpClient;
  timeoutMs: number;
  settleMs: number;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];
const failed = (url: string, err: unknown) =>
  ({ ok: false, code: "PLB_UPSTREAM_FAILED", message: `The page ${url} did not render: ${firstLine(err)}` }) as const;

/**
 * Waits, after `load`, until no request has been in flight for 150 ms (a page that fetches its text has it by then),
 * at most `maxMs`. Playwright's "networkidle" would add 500 ms to every render.
 */
async function settle(nav: Navigation, maxMs: number): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    if (nav.inflight === 0 && Date.now() - nav.lastActivity >= 150) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function renderPage(
  browser: Browser,
  url: string,
  s: RenderSettings,
  signal?: AbortSignal,
): Promise<EngineResult<RenderedPage>> {
  let context: Awaited<ReturnType<Browser["newContext"]>>;
  try {
    context = await browser.newContext({ serviceWorkers: "block", acceptDownloads: false });
  } catch (err) {
    return failed(url, err);
  }
  const onAbort = () => void context.close().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const nav = await routeThroughClient(context, s.http, signal);
    const page = await context.newPage();
    let status = 0;
    // the client follows (and checks) redirects; a redirected navigation is aborted and taken to where it ended
    for (let target = url, hops = 0; ; hops++) {
      nav.redirectedTo = null;
      try {
        status = (await page.goto(target, { waitUntil: "load", timeout: s.timeoutMs }))?.status() ?? 0;
        break;
      } catch (err) {
        if (nav.failure) return { ok: false, code: nav.failure.code, message: nav.failure.message };
        if (!nav.redirectedTo || hops >= 5) return failed(url, err);
        target = nav.redirectedTo;
      }
    }
    await settle(nav, s.settleMs);
    return { ok: true, value: { url: page.url(), status, html: await page.content() } };
  } catch (err) {
    return failed(url, err);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await context.close().catch(() => {});
  }
}
