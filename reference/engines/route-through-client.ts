// Every request a rendered page makes goes through the reference's http client (issue 5: "the same SSRF guard
// applied to the navigation and to every sub-request"). The client follows redirects itself, checking each hop:
// a 3xx fulfilled to Chromium would be followed by Chromium's own network stack, unchecked (measured with
// playwright-core 1.57). A redirected main navigation is reported instead, and the renderer navigates to where it
// ended, so the page keeps its real URL. Images, media and fonts are not fetched: they hold no text.
import type { BrowserContext, Route } from "playwright-core";
import type { HttpClient } from "./http-client.ts";
import type { Failure } from "./target-failure.ts";

const SKIPPED = new Set(["image", "media", "font"]);
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

export async function routeThroughClient(
  context: BrowserContext,
  http: HttpClient,
  signal?: AbortSignal,
): Promise<Navigation> {
  const nav: Navigation = { failure: null, redirectedTo: null, inflight: 0, lastActivity: Date.now() };

  async function handle(route: Route): Promise<void> {
    const request = route.request();
    if (SKIPPED.has(request.resourceType())) return route.abort("blockedbyclient");
    const sent = await request.allHeaders();
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) if (sent[name]) headers[name] = sent[name];
    const r = await http.fetch(request.url(), {
      method: request.method(),
      headers,
      body: request.postDataBuffer() ?? undefined,
      signal,
    });
    const main = request.isNavigationRequest() && request.frame().parentFrame() === null;
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

  await context.route("**/*", async (route) => {
    nav.inflight++;
    nav.lastActivity = Date.now();
    await handle(route).catch(() => route.abort("failed").catch(() => {}));
    nav.inflight--;
    nav.lastActivity = Date.now();
  });
  // WebSockets bypass route(); an unconnected routeWebSocket handler answers them in-process, so none leaves
  await context.routeWebSocket(/.*/, (ws) => ws.close());
  return nav;
}
