// Every request a rendered page makes goes through the reference's http client (issue 5: "the same SSRF guard
// applied to the navigation and to every sub-request"). The client follows redirects itself, checking each hop:
// a 3xx fulfilled to Chromium would be followed by Chromium's own network stack, unchecked (measured with
// playwright-core 1.57). A redirected main navigation is reported instead, and the renderer navigates to where it
// ended, so the page keeps its real URL. The crawl's renders skip images, media and fonts (they hold no text);
// screenshots skip media only. A render's requests share one byte budget and a few connections at a time
// (issue 12 "Browser fallback": a page whose script fetches a huge URL again and again must not pull gigabytes).
import type { BrowserContext, Route } from "playwright-core";
import type { ByteBudget } from "./byte-budget.ts";
import type { HttpClient } from "./http-client.ts";
import type { Failure } from "./target-failure.ts";

/** What a text render does not fetch. */
export const TEXT_ONLY_SKIPS: ReadonlySet<string> = new Set(["image", "media", "font"]);
const FORWARDED = ["accept", "accept-language", "content-type", "cookie", "origin", "referer", "x-requested-with"];
// the body is handed over decoded and whole, so the headers that described its transfer no longer apply
const DROPPED = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]);

export interface Navigation {
  /** why the main document's navigation failed, when it did */
  failure: Failure | null;
  /** where the main document's navigation was redirected to (it was aborted; navigate there instead) */
  redirectedTo: string | null;
  /** requests being fetched now, and when the last one began or ended (ms): the renderer waits for quiet */
  inflight: number;
  lastActivity: number;
}

export interface RouteOptions {
  signal?: AbortSignal;
  /** resource types aborted unfetched (default TEXT_ONLY_SKIPS) */
  skip?: ReadonlySet<string>;
  /** the bytes every request of the render may read together */
  budget?: ByteBudget;
  /** requests fetched at once (default 6, a browser's connections per host); the others wait */
  parallel?: number;
}

/** At most `n` tasks at once; the others wait in order. */
function limiter(n: number) {
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

type Handler = (route: Route) => Promise<void>;
const handlers = new WeakMap<BrowserContext, Handler>();
const prepared = new WeakSet<BrowserContext>();

/**
 * Installs the routes of a context as it opens (browser-pool.ts), before any render needs them: a spare context
 * waits with them in place, so a render only names its handler instead of spending two browser round trips on them
 * (issue 11, the screenshot's time). Until a render names one, every request of the context is refused.
 */
export async function prepareRouting(context: BrowserContext): Promise<void> {
  await context.route("**/*", (route) => {
    const handler = handlers.get(context);
    return handler ? handler(route) : route.abort("blockedbyclient").catch(() => {});
  });
  // WebSockets bypass route(); an unconnected routeWebSocket handler answers them in-process, so none leaves
  await context.routeWebSocket(/.*/, (ws) => ws.close());
  prepared.add(context);
}

export async function routeThroughClient(
  context: BrowserContext,
  http: HttpClient,
  options: RouteOptions = {},
): Promise<Navigation> {
  const nav: Navigation = { failure: null, redirectedTo: null, inflight: 0, lastActivity: Date.now() };
  const { signal, budget } = options;
  const skip = options.skip ?? TEXT_ONLY_SKIPS;
  const limit = limiter(options.parallel ?? 6);

  async function handle(route: Route): Promise<void> {
    const request = route.request();
    if (skip.has(request.resourceType())) return route.abort("blockedbyclient");
    const main = request.isNavigationRequest() && request.frame().parentFrame() === null;
    const sent = await request.allHeaders();
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) if (sent[name]) headers[name] = sent[name];
    const r = await limit(() => {
      if (budget?.exhausted || signal?.aborted) {
        const why = signal?.aborted ? "the render is over" : `the page's requests passed ${budget?.limit} bytes`;
        return Promise.resolve({ ok: false, code: "PLB_UPSTREAM_FAILED", message: `Not fetched: ${why}` } as const);
      }
      return http.fetch(request.url(), {
        method: request.method(),
        headers,
        body: request.postDataBuffer() ?? undefined,
        signal,
        budget,
      });
    });
    if (!r.ok) {
      if (main) nav.failure = r;
      return route.abort(r.code === "PLB_TARGET_FORBIDDEN" ? "blockedbyclient" : "failed");
    }
    if (main && r.value.redirects.length > 0) {
      nav.redirectedTo = r.value.url;
      return route.abort("aborted");
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.value.headers)) if (!DROPPED.has(k)) out[k] = v;
    await route.fulfill({ status: r.value.status, headers: out, body: r.value.body });
  }

  const dispatch: Handler = async (route) => {
    nav.inflight++;
    nav.lastActivity = Date.now();
    await handle(route).catch(() => route.abort("failed").catch(() => {}));
    nav.inflight--;
    nav.lastActivity = Date.now();
  };
  if (prepared.has(context)) handlers.set(context, dispatch);
  else {
    await context.route("**/*", dispatch);
    await context.routeWebSocket(/.*/, (ws) => ws.close());
  }
  return nav;
}
