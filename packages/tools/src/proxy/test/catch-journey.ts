// A client team's whole journey, as its end-to-end tests would run it against the service (or through the proxy):
// every operation, single and batch; the balance read before and after the paid calls; a deepcrawl polled to
// completion and its zip fetched; an empty account; invalid requests (a bound past its edge, an unknown property,
// malformed JSON, a viewport out of range) and an unknown key. The calls are sequential, as a script's are, so every
// balance read is unambiguous. Test glue, also run by `plumbline bench proxy-catch`.

export interface CatchJourneyOptions {
  /** where the client sends its requests (the proxy, or the target itself) */
  base: string;
  /** a key with credits */
  key: string;
  /** a key of an account with 0 credits */
  brokeKey: string;
  /** the site the journey asks the target to crawl, screenshot, map and extract (default https://example.com) */
  site?: string;
  /** its article and product pages (default /article and /product) */
  pages?: { article: string; product: string };
  /** between two polls of the deepcrawl task: move the target's clock, or wait (default: wait 50 ms) */
  settle?: (ms: number) => Promise<void> | void;
  /** polls of the deepcrawl task before the journey gives up on it (default 60) */
  maxPolls?: number;
}

export interface JourneyCall {
  name: string;
  method: string;
  path: string;
  /** 0 when no answer came (the connection dropped) */
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One call of a journey: sent with the key (another, or none with `key: null`), a request id of its own, recorded in
 * `calls` with what came back (status 0 when the connection dropped: the journey goes on).
 */
export function journeyCaller(o: {
  base: string;
  key: string;
  /** where each call is recorded, in order */
  calls: JourneyCall[];
  /** the x-request-id prefix: PREFIX-1, PREFIX-2, … */
  requestIds: string;
}) {
  const { base, key, calls } = o;
  return async (
    name: string,
    method: string,
    path: string,
    body?: unknown,
    opts: { key?: string | null; headers?: Record<string, string>; raw?: string } = {},
  ) => {
    const url = /^https?:/.test(path) ? path : `${base}${path}`;
    const credential = opts.key === undefined ? key : opts.key;
    const text = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    let status = 0;
    let contentType = "";
    let bytes = Buffer.alloc(0);
    try {
      const res = await fetch(url, {
        method,
        headers: {
          ...(credential ? { authorization: `Bearer ${credential}` } : {}),
          "x-request-id": `${o.requestIds}-${calls.length + 1}`,
          ...(text === undefined ? {} : { "content-type": "application/json" }),
          ...opts.headers,
        },
        body: text,
      });
      status = res.status;
      contentType = res.headers.get("content-type") ?? "";
      bytes = Buffer.from(await res.arrayBuffer());
    } catch {
      // a dropped connection: the client sees no answer, and goes on with its journey
    }
    const shown = url.startsWith(base) ? url.slice(base.length) : url;
    calls.push({ name, method, path: shown, status, contentType, body: bytes });
    return calls[calls.length - 1];
  };
}

const PRODUCT = {
  type: "object",
  properties: { name: { type: "string" }, sku: { type: "string" }, price_usd: { type: "number" } },
  required: ["name", "sku", "price_usd"],
};
const PLANS = {
  type: "array",
  minItems: 1,
  items: { type: "object", properties: { plan: { type: "string" } }, required: ["plan"] },
};

export async function runCatchJourney(options: CatchJourneyOptions): Promise<JourneyCall[]> {
  const { base, key, brokeKey } = options;
  const site = (options.site ?? "https://example.com").replace(/\/$/, "");
  const article = `${site}${options.pages?.article ?? "/article"}`;
  const product = `${site}${options.pages?.product ?? "/product"}`;
  const settle = options.settle ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 50))));
  const calls: JourneyCall[] = [];

  const call = journeyCaller({ base, key, calls, requestIds: "journey" });
  const json = (c: JourneyCall): Record<string, unknown> | undefined => {
    try {
      return JSON.parse(c.body.toString("utf8")) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const balance = () => call("balance", "GET", "/usage");

  await call("health", "GET", "/health");
  await balance();
  await call("search", "POST", "/search", { query: "plumbline proxy", max_results: 3 });
  await balance();
  await call("search batch", "POST", "/search", [{ query: "first" }, { query: "second", max_results: 2 }], {
    headers: { prefer: 'fail-entries="1"' },
  });
  await call("news", "POST", "/news", { query: "plumbline", max_results: 3 });
  await call("news batch", "POST", "/news", [{ query: "first" }, { query: "second" }]);
  await balance();
  await call("crawl", "POST", "/crawl", { url: article });
  await call("crawl batch", "POST", "/crawl", [{ url: `${site}/` }, { url: article }]);
  await balance();
  await call("screenshot", "POST", "/screenshot", { url: `${site}/`, viewport: { width: 800, height: 600 } });
  await call("screenshot jpeg", "POST", "/screenshot", { url: `${site}/`, format: "jpeg" });
  await call("sitemap", "POST", "/sitemap", { url: `${site}/`, type: "sitemap" });
  await call("sitemap all", "POST", "/sitemap", { url: `${site}/`, type: "all" });
  await balance();
  await call("extract", "POST", "/extract", {
    url: product,
    prompt: "The product's name, its SKU and its price in US dollars.",
    response_format: PRODUCT,
  });
  await call("extract array", "POST", "/extract", {
    url: product,
    prompt: "Every plan in the table.",
    response_format: PLANS,
  });
  await call("extract wrapper", "POST", "/extract", {
    url: product,
    prompt: "The product's name, its SKU and its price in US dollars.",
    response_format: { type: "json_schema", json_schema: { name: "product", schema: PRODUCT } },
  });
  await call("trending", "POST", "/trending", { search_service: "github", max_results: 3 });
  await balance();

  const accepted = await call("deepcrawl", "POST", "/deepcrawl", { url: `${site}/` });
  const taskId = json(accepted)?.taskId;
  if (typeof taskId === "string") {
    let status: unknown;
    let zipUrl: unknown;
    for (let i = 0; i < (options.maxPolls ?? 60); i++) {
      const poll = await call("deepcrawl poll", "GET", `/deepcrawl/status/${encodeURIComponent(taskId)}`);
      ({ status, zipUrl } = json(poll) ?? {});
      if (status === "completed" || status === "failed" || poll.status !== 200) break;
      await settle(1000);
    }
    if (typeof zipUrl === "string") await call("deepcrawl zip", "GET", zipUrl, undefined, { key: null });
    // later, the client fetches the package again from the link a new poll hands out (a signed link expires)
    const again = await call("deepcrawl poll again", "GET", `/deepcrawl/status/${encodeURIComponent(taskId)}`);
    const fresh = json(again)?.zipUrl;
    if (typeof fresh === "string") await call("deepcrawl zip again", "GET", fresh, undefined, { key: null });
  }
  await balance();

  // what goes wrong: an empty account, invalid requests, an unknown key
  await call("balance, empty account", "GET", "/usage", undefined, { key: brokeKey });
  await call("search, empty account", "POST", "/search", { query: "no credits" }, { key: brokeKey });
  await call("news, empty account", "POST", "/news", { query: "no credits" }, { key: brokeKey });
  await call("balance, empty account", "GET", "/usage", undefined, { key: brokeKey });
  await call("search, max_results past its edge", "POST", "/search", { query: "too many", max_results: 999 });
  await call("search, unknown property", "POST", "/search", { query: "x", colour: "blue" });
  await call("crawl, malformed JSON", "POST", "/crawl", undefined, { raw: '{"url": ' });
  await call("screenshot, viewport out of range", "POST", "/screenshot", {
    url: `${site}/`,
    viewport: { width: 100_000, height: 600 },
  });
  await call("usage, unknown key", "GET", "/usage", undefined, { key: "not-a-key-at-all" });
  await balance();
  return calls;
}
