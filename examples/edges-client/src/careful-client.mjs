// The careful client: the same calls as naive-client.mjs, written for every answer the contract allows. It retries
// what is transient (429 after Retry-After; 502, 503, 504 and dropped connections with backoff), reads optional
// fields with defaults, accepts null where the contract does, reads each batch entry's success, and returns a
// deepcrawl task's outcome (completed, failed or not_found) instead of throwing it.

export class ApiError extends Error {
  constructor(status, body) {
    super(`API error: ${status} ${body?.message ?? ""}`.trim());
    this.status = status;
    this.body = body;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TRANSIENT = new Set([502, 503, 504]);

export function createClient({ baseUrl, apiKey, pollMs = 20, timeoutMs = 30_000, attempts = 4 }) {
  async function request(method, path, body) {
    for (let attempt = 1; ; attempt++) {
      let res;
      try {
        res = await fetch(baseUrl + path, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        // a dropped connection: no answer, so nothing was charged; try again
        if (attempt < attempts) {
          await sleep(50 * attempt);
          continue;
        }
        throw err;
      }
      if (res.status === 429 && attempt < attempts) {
        await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
        continue;
      }
      if (TRANSIENT.has(res.status) && attempt < attempts) {
        await sleep(50 * attempt);
        continue;
      }
      return res;
    }
  }
  async function json(method, path, body) {
    const res = await request(method, path, body);
    const data = await res.json();
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }

  return {
    async search(query, { maxResults = 5, images = false } = {}) {
      const r = await json("POST", "/search", { query, max_results: maxResults, image: images });
      return {
        titles: r.results.map((x) => x.title),
        // images are optional even when asked for
        images: (r.images ?? []).map((u) => new URL(u).hostname),
      };
    },
    async searchMany(queries) {
      const r = await json(
        "POST",
        "/search",
        queries.map((query) => ({ query, max_results: 3 })),
      );
      // a 200 batch may hold failed entries (a 402 when the balance ran out, a 502 upstream)
      return {
        served: r.results.filter((e) => e.success).map((e) => e.data.results.length),
        failed: r.results.filter((e) => !e.success).map((e) => e.error.statusCode),
      };
    },
    async trending(service) {
      const r = await json("POST", "/trending", { search_service: service, max_results: 5 });
      // description: a string, null or absent
      return r.results.map((x) => `${x.title}: ${(x.description ?? "").trim() || "(no description)"}`);
    },
    async crawl(url) {
      const r = await json("POST", "/crawl", { url });
      return { title: r.results.title, length: r.results.content.length, metadata: r.results.metadata ?? {} };
    },
    async screenshot(url) {
      const res = await request("POST", "/screenshot", { url });
      if (!res.ok) throw new ApiError(res.status, await res.json());
      return Buffer.from(await res.arrayBuffer());
    },
    async deepcrawl(url, { budgetMs = 600_000 } = {}) {
      const { taskId } = await json("POST", "/deepcrawl", { url });
      const deadline = Date.now() + budgetMs;
      while (Date.now() < deadline) {
        const res = await request("GET", `/deepcrawl/status/${taskId}`);
        const s = await res.json();
        if (res.status === 404 || s.status === "not_found") return { status: "not_found", taskId };
        if (!res.ok) throw new ApiError(res.status, s);
        if (s.status === "failed") return { status: "failed", taskId, error: s.error ?? "no reason given" };
        if (s.status === "completed") {
          const zip = await fetch(s.zipUrl);
          return { status: "completed", taskId, bytes: (await zip.arrayBuffer()).byteLength };
        }
        await sleep(pollMs);
      }
      return { status: "timed out", taskId };
    },
  };
}
