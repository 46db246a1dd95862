// The reference's one headless Chromium (issue 11 "POST /screenshot", issue 12 "Browser fallback"), shared by
// /screenshot and the crawl's browser fallback: launched lazily, kept warm, relaunched after a crash; every caller
// gets a fresh context (no cookie, cache or storage crosses from one caller to the next), at most `contexts` at
// once. Callers beyond that wait in a bounded queue, for a bounded time: a full queue or a long wait is
// PLB_SERVICE_UNAVAILABLE (503 on /screenshot), never an unbounded backlog. Every context is closed whatever
// happens; one that will not close takes the browser down with it, and the next caller gets a new one.
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from "playwright-core";
import type { EngineResult } from "../platform/engines.ts";

// /work/.library/env/machines/node.md "Known to work": without the background-networking flags Chromium opens
// connections of its own at every start. Every request of a page is fulfilled by the http client instead
// (route-through-client.ts), and the host-resolver rule leaves Chromium unable to resolve any name by itself.
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-breakpad",
  "--no-pings",
  "--no-first-run",
  "--no-default-browser-check",
  "--metrics-recording-only",
  "--safebrowsing-disable-auto-update",
  "--dns-prefetch-disable",
  "--host-resolver-rules=MAP * ~NOTFOUND",
];

export interface BrowserPoolOptions {
  /** default: PLUMBLINE_CHROMIUM, else /usr/bin/chromium */
  executablePath?: string;
  /** contexts open at once (default 4); each holds a renderer process and its memory */
  contexts?: number;
  /** callers waiting for a context at most (default 8) */
  queue?: number;
  /** longest wait for a context (default 10 s) */
  queueWaitMs?: number;
  /** flags added to CHROMIUM_ARGS (tests) */
  args?: string[];
}

export interface BrowserPool {
  /** `run` in a fresh context, closed afterwards; PLB_SERVICE_UNAVAILABLE when none frees up in time */
  withContext<T>(
    options: BrowserContextOptions,
    run: (context: BrowserContext) => Promise<EngineResult<T>>,
  ): Promise<EngineResult<T>>;
  /** contexts open, callers waiting, browsers launched so far */
  stats(): { open: number; waiting: number; launches: number };
  close(): Promise<void>;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];
const unavailable = (message: string) => ({ ok: false, code: "PLB_SERVICE_UNAVAILABLE", message }) as const;

export function createBrowserPool(options: BrowserPoolOptions = {}): BrowserPool {
  const executablePath = options.executablePath ?? process.env.PLUMBLINE_CHROMIUM ?? "/usr/bin/chromium";
  const capacity = options.contexts ?? 4;
  const maxQueue = options.queue ?? 8;
  const queueWaitMs = options.queueWaitMs ?? 10_000;
  let open = 0;
  let launches = 0;
  let closed = false;
  const waiting: Array<(granted: boolean) => void> = [];
  let browser: Promise<Browser> | null = null;

  function shared(): Promise<Browser> {
    if (!browser) {
      launches++;
      const launching = chromium.launch({
        executablePath,
        args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
        headless: true,
      });
      browser = launching;
      const forget = () => {
        if (browser === launching) browser = null;
      };
      launching.then((b) => b.on("disconnected", forget), forget);
    }
    return browser;
  }

  /** A context slot: true at once when one is free, after a wait in the queue otherwise, false when none comes. */
  function acquire(): Promise<boolean> {
    if (closed) return Promise.resolve(false);
    if (open < capacity) {
      open++;
      return Promise.resolve(true);
    }
    if (waiting.length >= maxQueue) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = waiting.indexOf(grant);
        if (i >= 0) waiting.splice(i, 1);
        resolve(false);
      }, queueWaitMs);
      const grant = (granted: boolean) => {
        clearTimeout(timer);
        resolve(granted);
      };
      waiting.push(grant);
    });
  }

  function release(): void {
    const next = waiting.shift();
    if (next && !closed)
      next(true); // the slot passes on: `open` is unchanged
    else open--;
  }

  /** Closes a context; one that does not close within 5 s means a wedged browser, which is closed instead. */
  async function dispose(context: BrowserContext, owner: Browser): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<"stuck">((r) => {
      timer = setTimeout(() => r("stuck"), 5_000);
    });
    const outcome = await Promise.race([context.close().catch(() => "closed" as const), stuck]);
    clearTimeout(timer);
    if (outcome === "stuck") {
      if (browser && (await browser.catch(() => null)) === owner) browser = null;
      await owner.close().catch(() => {});
    }
  }

  return {
    async withContext(contextOptions, run) {
      if (!(await acquire())) return unavailable("No browser is free; try again shortly");
      try {
        let b: Browser;
        try {
          b = await shared();
        } catch (err) {
          return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The browser could not start: ${firstLine(err)}` };
        }
        let context: BrowserContext;
        try {
          context = await b.newContext({ serviceWorkers: "block", acceptDownloads: false, ...contextOptions });
        } catch (err) {
          return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The browser failed: ${firstLine(err)}` };
        }
        try {
          return await run(context);
        } finally {
          await dispose(context, b);
        }
      } finally {
        release();
      }
    },
    stats: () => ({ open, waiting: waiting.length, launches }),
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w(false);
      const pending = browser;
      browser = null;
      if (pending) await (await pending.catch(() => null))?.close();
    },
  };
}
