// The `enableFallback` renderer (interface-spec "POST /crawl"; issue 5): a page whose text is written by script is
// loaded in headless Chromium (playwright-core) and its DOM read back (render-page.ts). One shared browser, launched
// lazily and relaunched if it dies; a bounded number of renders at once, the others queue.
//
// Chromium opens no connection of its own: every request of the page is intercepted and fetched by the reference's
// one http client (route-through-client.ts), so the SSRF guard, the size cap and the timeouts apply to the navigation
// and to every sub-request, and the host-resolver rule below leaves Chromium unable to resolve any name by itself.
import { type Browser, chromium } from "playwright-core";
import type { EngineResult } from "../platform/engines.ts";
import type { HttpClient } from "./http-client.ts";
import { type RenderedPage, renderPage } from "./render-page.ts";

export type { RenderedPage } from "./render-page.ts";

export interface PageRenderer {
  render(url: string, signal?: AbortSignal): Promise<EngineResult<RenderedPage>>;
  close(): Promise<void>;
}

export interface BrowserRendererOptions {
  http: HttpClient;
  /** default: PLUMBLINE_CHROMIUM, else /usr/bin/chromium */
  executablePath?: string;
  /** navigation up to `load` (default 15 s) */
  timeoutMs?: number;
  /** longest wait for the network to go quiet after `load`, for pages that fetch their text (default 2 s) */
  settleMs?: number;
  /** renders at once (default 4); each holds a browser context and its memory */
  concurrency?: number;
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // every request is fulfilled by the http client; a name Chromium would resolve itself (preconnect, prefetch, a
  // redirect it follows on its own) resolves to nothing
  "--host-resolver-rules=MAP * ~NOTFOUND",
];

/** At most `n` calls of `run` at once; the others wait in order. */
function slots(n: number) {
  let free = n;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

export function createBrowserRenderer(options: BrowserRendererOptions): PageRenderer {
  const executablePath = options.executablePath ?? process.env.PLUMBLINE_CHROMIUM ?? "/usr/bin/chromium";
  const settings = { http: options.http, timeoutMs: options.timeoutMs ?? 15_000, settleMs: options.settleMs ?? 2_000 };
  const run = slots(options.concurrency ?? 4);
  let browser: Promise<Browser> | null = null;

  function shared(): Promise<Browser> {
    if (!browser) {
      const launching = chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
      browser = launching;
      const forget = () => {
        if (browser === launching) browser = null;
      };
      launching.then((b) => b.on("disconnected", forget), forget);
    }
    return browser;
  }

  return {
    render: (url, signal) =>
      run(async () => {
        let b: Browser;
        try {
          b = await shared();
        } catch (err) {
          const message = `The browser could not start: ${String((err as Error)?.message ?? err).split("\n")[0]}`;
          return { ok: false, code: "PLB_UPSTREAM_FAILED", message };
        }
        return renderPage(b, url, settings, signal);
      }),
    async close() {
      const pending = browser;
      browser = null;
      if (pending) await (await pending.catch(() => null))?.close();
    },
  };
}
