// The reference's one headless Chromium (issue 11 "POST /screenshot", issue 12 "Browser fallback"), shared by
// /screenshot and the crawl's browser fallback: launched lazily, kept warm, relaunched after a crash; every caller
// gets a fresh context (no cookie, cache or storage crosses from one caller to the next), at most `contexts` at
// once. A page's renderer process takes 200-800 ms to start on this 2-core machine; `spares` never-used contexts
// with their page open and their routes installed wait ready (device_scale_factor 1; viewport and media are set on
// the page), refilled after each use; the browser itself still starts with the first caller. Callers beyond that
// wait in a bounded queue, for a bounded time: a full queue or a long wait is
// PLB_SERVICE_UNAVAILABLE (503 on /screenshot), never an unbounded backlog. Every context is closed whatever
// happens; one that will not close takes the browser down with it, and the next caller gets a new one.

import { resolveChromium } from "@plumbline-kit/contract/chromium";
import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { prepareRouting } from "./route-through-client.ts";

// /work/.library/env/machines/node.md "Known to work": without the background-networking flags Chromium opens
// connections of its own at every start. Even with them, Debian's build (its wrapper sets Google API keys) still
// tries network time, accounts and GCM hosts (seen through a proxy, browser-pool.test.ts); the host-resolver rule
// maps every host, IP literals included, to nothing, so none of that leaves. Every request of a page is fulfilled
// by the http client instead (route-through-client.ts).
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
  /** default: PLUMBLINE_CHROMIUM, else the embedded build (@sparticuz/chromium, spec/chromium.ts) */
  executablePath?: string;
  /** contexts open at once (default 4); each holds a renderer process and its memory */
  contexts?: number;
  /** callers waiting for a context at most (default 8) */
  queue?: number;
  /** longest wait for a context (default 10 s) */
  queueWaitMs?: number;
  /** never-used contexts kept open and ready (default 0) */
  spares?: number;
  /** flags added to CHROMIUM_ARGS (tests) */
  args?: string[];
}

/** What a caller's page looks like. */
export interface PageOptions {
  viewport?: { width: number; height: number };
  deviceScaleFactor?: number;
  colorScheme?: "light" | "dark";
  reducedMotion?: "reduce" | "no-preference";
}

interface Warm {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** the viewport the context opened with */
  viewport?: { width: number; height: number };
}

const CONTEXT_BASE = { serviceWorkers: "block", acceptDownloads: false } as const;

export interface BrowserPool {
  /** `run` in a fresh context, closed afterwards; PLB_SERVICE_UNAVAILABLE when none frees up in time */
  withPage<T>(
    options: PageOptions,
    run: (page: Page, context: BrowserContext) => Promise<EngineResult<T>>,
  ): Promise<EngineResult<T>>;
  /** contexts in use, contexts closing, callers waiting, browsers launched so far, whether one is up or starting */
  stats(): { open: number; closing: number; waiting: number; launches: number; browser: boolean };
  close(): Promise<void>;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];
const unavailable = (message: string) => ({ ok: false, code: "PLB_SERVICE_UNAVAILABLE", message }) as const;

export function createBrowserPool(options: BrowserPoolOptions = {}): BrowserPool {
  const capacity = options.contexts ?? 4;
  const maxQueue = options.queue ?? 8;
  const queueWaitMs = options.queueWaitMs ?? 10_000;
  let open = 0;
  let closing = 0;
  let launches = 0;
  let closed = false;
  const waiting: Array<(granted: boolean) => void> = [];
  let browser: Promise<Browser> | null = null;
  const spareCount = options.spares ?? 0;
  let spares: Promise<Warm | null>[] = [];

  function shared(): Promise<Browser> {
    if (!browser) {
      launches++;
      // playwright-core is loaded here, at the first launch, not with the reference (~0.4 s of its start)
      const launching = Promise.all([import("playwright-core"), resolveChromium(options.executablePath)]).then(
        ([{ chromium }, { executablePath, env }]) =>
          chromium.launch({ executablePath, env, args: [...CHROMIUM_ARGS, ...(options.args ?? [])], headless: true }),
      );
      browser = launching;
      const forget = () => {
        if (browser !== launching) return;
        browser = null;
        spares = [];
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

  // spares open at the viewport of the latest caller (callers of one deployment mostly ask for the same) and with
  // Playwright's default media, so a caller asking for those spends no browser round trip setting them
  let spareViewport = { width: 1280, height: 720 };
  const SPARE_MEDIA = { colorScheme: "light", reducedMotion: "no-preference" } as const;

  function refill(): void {
    while (!closed && spares.length < spareCount) {
      const viewport = spareViewport;
      spares.push(
        (async () => {
          const b = await shared();
          const context = await b.newContext({ ...CONTEXT_BASE, ...SPARE_MEDIA, viewport });
          await prepareRouting(context);
          return { browser: b, context, page: await context.newPage(), viewport };
        })().catch(() => null),
      );
    }
  }

  /** A spare ready for `o`, with its viewport and media set; null when none fits or it died. */
  async function spare(o: PageOptions): Promise<Warm | null> {
    if (o.viewport) spareViewport = o.viewport;
    if ((o.deviceScaleFactor ?? 1) !== 1 || spares.length === 0) return null;
    const w = await spares.shift();
    if (!w) return null;
    try {
      if (!w.browser.isConnected() || w.page.isClosed()) throw new Error("gone");
      const v = o.viewport;
      if (v && (v.width !== w.viewport?.width || v.height !== w.viewport?.height)) await w.page.setViewportSize(v);
      const colorScheme = o.colorScheme ?? SPARE_MEDIA.colorScheme;
      const reducedMotion = o.reducedMotion ?? SPARE_MEDIA.reducedMotion;
      if (colorScheme !== SPARE_MEDIA.colorScheme || reducedMotion !== SPARE_MEDIA.reducedMotion)
        await w.page.emulateMedia({ colorScheme, reducedMotion });
      return w;
    } catch {
      await w.context.close().catch(() => {});
      return null;
    }
  }

  async function fresh(o: PageOptions): Promise<EngineResult<Warm>> {
    let b: Browser;
    try {
      b = await shared();
    } catch (err) {
      return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The browser could not start: ${firstLine(err)}` };
    }
    try {
      const context = await b.newContext({ ...CONTEXT_BASE, ...o });
      await prepareRouting(context);
      return { ok: true, value: { browser: b, context, page: await context.newPage() } };
    } catch (err) {
      return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The browser failed: ${firstLine(err)}` };
    }
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
    async withPage(pageOptions, run) {
      if (!(await acquire())) return unavailable("No browser is free; try again shortly");
      const done = () => {
        release();
        refill();
      };
      let got: EngineResult<Warm>;
      try {
        const warm = await spare(pageOptions);
        got = warm ? { ok: true, value: warm } : await fresh(pageOptions);
      } catch (err) {
        done();
        throw err;
      }
      if (!got.ok) {
        done();
        return got;
      }
      const { context, browser: owner } = got.value;
      try {
        return await run(got.value.page, context);
      } finally {
        // the caller has its answer, and the slot is free, without waiting for the close (10-40 ms); contexts
        // closing are counted apart (at most one per finished call; a close that hangs takes its browser down)
        release();
        closing++;
        void dispose(context, owner).finally(() => {
          closing--;
          refill();
        });
      }
    },
    stats: () => ({ open, closing, waiting: waiting.length, launches, browser: browser !== null }),
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w(false);
      spares = [];
      const pending = browser;
      browser = null;
      if (pending) await (await pending.catch(() => null))?.close();
    },
  };
}
