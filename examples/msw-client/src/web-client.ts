// A tiny client of the Web Search, Crawl and Extraction Service, as a client team would write one: the code under
// test in this example. It knows nothing of plumbline; tests point it at the mock (in-process or over HTTP).

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** waits between deepcrawl polls; tests pass one that advances the mock's manual clock instead of sleeping */
  sleep?: (ms: number) => Promise<void>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: { error?: string; message?: string; code?: string };
  constructor(status: number, body: { error?: string; message?: string; code?: string }) {
    super(`API error: ${status} ${body.message ?? body.error ?? ""}`.trim());
    this.status = status;
    this.body = body;
  }
}

export interface SearchResult {
  title: string;
  link: string;
  snippet: string;
}

export interface BatchOutcome {
  succeeded: number;
  failed: Array<{ index: number; statusCode: number }>;
  totalCost: number;
}

export function createClient(o: ClientOptions) {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${o.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${o.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new ApiError(res.status, json as ApiError["body"]);
    return json;
  }

  return {
    async search(query: string, maxResults = 5): Promise<SearchResult[]> {
      const r = await call<{ results: SearchResult[] }>("POST", "/search", { query, max_results: maxResults });
      return r.results;
    },

    async searchMany(queries: string[]): Promise<BatchOutcome> {
      const r = await call<{
        results: Array<{ success: boolean; error?: { statusCode: number } }>;
        summary: { successful: number; totalCost: number };
      }>(
        "POST",
        "/search",
        queries.map((query) => ({ query })),
      );
      const failed = r.results.flatMap((e, index) =>
        e.success ? [] : [{ index, statusCode: e.error?.statusCode ?? 0 }],
      );
      return { succeeded: r.summary.successful, failed, totalCost: r.summary.totalCost };
    },

    async credits(): Promise<number> {
      return (await call<{ usage: number }>("GET", "/usage")).usage;
    },

    /** Starts a deepcrawl and polls every 2 s (as the official SDK does) until it ends; resolves to the zip. */
    async deepcrawl(url: string, maxPolls = 150): Promise<{ states: string[]; zip: Uint8Array }> {
      const { taskId } = await call<{ taskId: string }>("POST", "/deepcrawl", { url });
      const states: string[] = [];
      for (let i = 0; i < maxPolls; i++) {
        const s = await call<{ status: string; zipUrl?: string | null; error?: string | null }>(
          "GET",
          `/deepcrawl/status/${encodeURIComponent(taskId)}`,
        );
        if (states.at(-1) !== s.status) states.push(s.status);
        if (s.status === "completed" && s.zipUrl) {
          const zip = await fetch(s.zipUrl, { headers: { authorization: `Bearer ${o.apiKey}` } });
          return { states, zip: new Uint8Array(await zip.arrayBuffer()) };
        }
        if (s.status === "failed" || s.status === "not_found") throw new Error(`deepcrawl ${s.status}: ${s.error}`);
        await sleep(2000);
      }
      throw new Error("deepcrawl did not finish");
    },
  };
}
