// The `enableFallback` renderer (interface-spec "POST /crawl"; issue 5): a page whose text is written by script is
// loaded in headless Chromium (playwright-core) and its DOM read back (render-page.ts), in a context of the shared
// browser pool (browser-pool.ts). When the pool is saturated the render fails and the static text stands.
//
// Chromium opens no connection of its own: every request of the page is intercepted and fetched by the reference's
// one http client (route-through-client.ts), so the SSRF guard, the size cap, the render's byte budget and the
// timeouts apply to the navigation and to every sub-request.
import type { EngineResult } from "@plumbline-kit/platform/engines";
import { type BrowserPool, createBrowserPool } from "./browser-pool.ts";
import type { HttpClient } from "./http-client.ts";
import { type RenderedPage, renderPage } from "./render-page.ts";

export { CHROMIUM_ARGS } from "./browser-pool.ts";
export type { RenderedPage } from "./render-page.ts";

export interface PageRenderer {
  render(url: string, signal?: AbortSignal): Promise<EngineResult<RenderedPage>>;
  close(): Promise<void>;
}

export interface BrowserRendererOptions {
  http: HttpClient;
  /** the shared browser; without one the renderer launches (and closes) its own */
  pool?: BrowserPool;
  /** default: PLUMBLINE_CHROMIUM, else the embedded build (own pool only) */
  executablePath?: string;
  /** navigation up to `load` (default 15 s) */
  timeoutMs?: number;
  /** longest wait for the network to go quiet after `load`, for pages that fetch their text (default 2 s) */
  settleMs?: number;
  /** bytes one render's requests may read together (default 16 MiB) */
  budgetBytes?: number;
  /** renders at once in an own pool (default 4) */
  concurrency?: number;
}

export function createBrowserRenderer(options: BrowserRendererOptions): PageRenderer {
  const own = !options.pool;
  const pool =
    options.pool ?? createBrowserPool({ executablePath: options.executablePath, contexts: options.concurrency });
  const settings = {
    http: options.http,
    timeoutMs: options.timeoutMs ?? 15_000,
    settleMs: options.settleMs ?? 2_000,
    budgetBytes: options.budgetBytes ?? 16 * 1024 * 1024,
  };
  return {
    render: (url, signal) => pool.withPage({}, (page, context) => renderPage(page, context, url, settings, signal)),
    async close() {
      if (own) await pool.close();
    },
  };
}
