// The naive client: the calls of careful-client.mjs as they are often first written. Four mistakes, each a real
// client's: it stops polling a deepcrawl task at the first `success: false` (and throws), it reads a trending
// `description` as a string (the contract allows null or nothing), it treats a 429 as fatal instead of waiting
// Retry-After, and it assumes `images` is there when it asked for images. It does retry 5xx and dropped
// connections, so the edges it fails are those four mistakes'.

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
        if (attempt < attempts) {
          await sleep(50 * attempt);
          continue;
        }
        throw err;
      }
      // mistake: a 429 is an error like any other (no wait, no retry)
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
        // mistake: images asked for, so assumed present
        images: images ? r.images.map((u) => new URL(u).hostname) : [],
      };
    },
    async searchMany(queries) {
      const r = await json(
        "POST",
        "/search",
        queries.map((query) => ({ query, max_results: 3 })),
      );
      return {
        served: r.results.filter((e) => e.success).map((e) => e.data.results.length),
        failed: r.results.filter((e) => !e.success).map((e) => e.error.statusCode),
      };
    },
    async trending(service) {
      const r = await json("POST", "/trending", { search_service: service, max_results: 5 });
      // mistake: description read as a string
      return r.results.map((x) => `${x.title}: ${x.description.trim()}`);
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
    async deepcrawl(url) {
      const { taskId } = await json("POST", "/deepcrawl", { url });
      for (;;) {
        const s = await json("GET", `/deepcrawl/status/${taskId}`);
        // mistake: polling stops, and throws, at the first success: false
        if (s.success === false) throw new Error(`deepcrawl ${taskId}: ${s.message ?? s.status}`);
        if (s.status === "completed") {
          const zip = await fetch(s.zipUrl);
          return { status: "completed", taskId, bytes: (await zip.arrayBuffer()).byteLength };
        }
        await sleep(pollMs);
      }
    },
  };
}
