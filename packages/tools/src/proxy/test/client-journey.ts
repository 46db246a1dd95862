// A client's journey through the proxy, as a client team's end-to-end tests would run it: search (single, and a
// batch with a failed entry), crawl, screenshot, sitemap, a deepcrawl polled to completed and its zip fetched, usage,
// health, a 402 (an empty account), a 422 (an invalid request) and a 401 (an unknown key). Test glue.

export interface JourneyKeys {
  key: string;
  /** an account with 0 credits */
  brokeKey: string;
}

export interface JourneyStep {
  name: string;
  status: number;
  contentType: string;
  body: Buffer;
}

/** `advance` moves the target's clock (the mock's manual clock) so the deepcrawl task finishes. */
export async function runJourney(base: string, keys: JourneyKeys, advance: (ms: number) => Promise<void> | void) {
  const steps: JourneyStep[] = [];
  const call = async (name: string, method: string, path: string, body?: unknown, key = keys.key, extra = {}) => {
    const url = /^https?:/.test(path) ? path : `${base}${path}`;
    const res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "x-request-id": `journey-${steps.length + 1}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...extra,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const step = {
      name,
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      body: Buffer.from(await res.arrayBuffer()),
    };
    steps.push(step);
    return step;
  };
  const json = (s: JourneyStep) => JSON.parse(s.body.toString("utf8"));

  await call("search", "POST", "/search", { query: "plumbline proxy", max_results: 3 });
  await call("search batch", "POST", "/search", [{ query: "first" }, { query: "second" }], keys.key, {
    prefer: 'fail-entries="1"',
  });
  await call("crawl", "POST", "/crawl", { url: "https://example.com/article" });
  await call("screenshot", "POST", "/screenshot", { url: "https://example.com/" });
  await call("sitemap", "POST", "/sitemap", { url: "https://example.com/" });
  const accepted = await call("deepcrawl", "POST", "/deepcrawl", { url: "https://example.com/" });
  const taskId = json(accepted).taskId as string;
  await call("deepcrawl poll", "GET", `/deepcrawl/status/${taskId}`);
  await advance(60_000);
  const done = await call("deepcrawl poll", "GET", `/deepcrawl/status/${taskId}`);
  const zipUrl = json(done).zipUrl as string;
  await call("deepcrawl zip", "GET", zipUrl);
  await call("deepcrawl poll again", "GET", `/deepcrawl/status/${taskId}`);
  await call("usage", "GET", "/usage");
  await call("health", "GET", "/health");
  await call("402", "POST", "/search", { query: "no credits" }, keys.brokeKey);
  await call("422", "POST", "/search", { query: "too many", max_results: 999 });
  await call("401", "GET", "/usage", undefined, "not-a-key-at-all");
  return { steps, taskId, zipUrl };
}
