// One render in a fresh browser context (browser-pool.ts): navigate, let the page's scripts write their text, read
// the DOM back. Every request goes through the http client (route-through-client.ts) within one byte budget.
// Failures are values; a page that navigates itself to a refused address fails with that refusal (issue 12), never
// with Chromium's error page as its content.

import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { BrowserContext, Page } from "playwright-core";
import { createByteBudget } from "./byte-budget.ts";
import type { HttpClient } from "./http-client.ts";
import { leftThePage, navigate } from "./navigate-page.ts";
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
  /** bytes all the page's requests may read together */
  budgetBytes: number;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];

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
  page: Page,
  context: BrowserContext,
  url: string,
  s: RenderSettings,
  signal?: AbortSignal,
): Promise<EngineResult<RenderedPage>> {
  const done = new AbortController();
  const onAbort = () => {
    done.abort();
    void context.close().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const budget = createByteBudget(s.budgetBytes);
    const nav = await routeThroughClient(context, s.http, { signal: done.signal, budget });
    const loaded = await navigate(page, nav, url, "load", Date.now() + s.timeoutMs);
    if (!loaded.ok) return loaded;
    await settle(nav, s.settleMs);
    const left = leftThePage(page, nav);
    if (left) return left;
    return { ok: true, value: { url: page.url(), status: loaded.value, html: await page.content() } };
  } catch (err) {
    return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The page ${url} did not render: ${firstLine(err)}` };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    done.abort();
  }
}
