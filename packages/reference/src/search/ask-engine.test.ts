// The reference's /ask engine over stand-in search and news engines (D-ask-intent, D-ask-relevance,
// D-ask-charging): the engines the words name are searched with the keywords and the window, each result scored by
// the documented formula, duplicates merged, below 0.5 dropped, best first, at most 20, results dated before the
// window dropped, a failed or throwing engine listed in `errors`, and every engine failed a PLB_UPSTREAM_FAILED value.
import type { Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";
import { describe, expect, it } from "vitest";
import { askRelevance, createAskEngine, keywordStems, stemOf } from "./ask-engine.ts";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const ctx: EngineContext = { requestId: "t", variability: "normal", seed: 0 };
type Hit = Schemas["SearchResult"];
type Asked = { kind: "search" | "news"; params: Schemas["SearchParameters"] };

/** engines answering `hits[service]`, failing for `fail[service]` (a value, or a throw with "throw") */
function standIns(hits: Record<string, Hit[]>, fail: Record<string, "value" | "throw"> = {}) {
  const asked: Asked[] = [];
  const answer =
    (kind: "search" | "news") =>
    async (params: Schemas["SearchParameters"]): Promise<EngineResult<Schemas["SearchResponse"]>> => {
      asked.push({ kind, params });
      const service = params.search_service ?? "";
      if (fail[service] === "throw") throw new Error("socket hang up");
      if (fail[service] === "value")
        return { ok: false, code: "PLB_UPSTREAM_FAILED", message: `The ${service} upstream answered 503` };
      return { ok: true, value: { searchParameters: params, results: hits[service] ?? [] } };
    };
  const engines = { search: answer("search"), news: answer("news") } as unknown as Pick<Engines, "search" | "news">;
  return { asked, ask: createAskEngine({ engines, clock: { now: () => NOW } }) };
}

const hit = (link: string, title: string, snippet: string, published_date?: string): Hit => ({
  title,
  link,
  snippet,
  ...(published_date ? { published_date } : {}),
});

describe("the reference's /ask engine", () => {
  it("searches the engines the words name with the keywords and the window; hackernews through news", async () => {
    const { asked, ask } = standIns({});
    const r = await ask({ query: "sqlite full-text search on hacker news and github this month" }, ctx);
    expect(r.ok && r.value.intent).toEqual({
      search_query: "sqlite full-text search and",
      sources: ["hackernews", "github", "google"],
      time_range: "month",
    });
    expect(asked.map((a) => [a.kind, a.params.search_service, a.params.query, a.params.time_range])).toEqual([
      ["news", "hackernews", "sqlite full-text search and", "month"],
      ["search", "github", "sqlite full-text search and", "month"],
      ["search", "google", "sqlite full-text search and", "month"],
    ]);
    expect(asked.every((a) => a.params.max_results === 10)).toBe(true);
  });

  it("scores by the documented formula: keyword coverage, title share, place in the engine's answer", async () => {
    const stems = keywordStems("vector database benchmarks");
    expect(stems).toEqual(["vector", "database", "benchmark"]);
    expect(stemOf("Libraries")).toBe("library");
    expect(stemOf("benchmarking")).toBe("benchmark");
    // every keyword in the title, first: 0.65 + 0.20 + 0.15
    expect(askRelevance(stems, { title: "Vector database benchmarks", snippet: "" }, 0)).toBeCloseTo(1);
    // every keyword in the snippet alone, fifth: 0.65 + 0 + 0.15 × 0.5
    expect(askRelevance(stems, { title: "A post", snippet: "benchmarking a vector database" }, 4)).toBeCloseTo(0.725);
    // one keyword of three, in the title, first: 0.65/3 + 0.20/3 + 0.15
    expect(askRelevance(stems, { title: "Vector art", snippet: "" }, 0)).toBeCloseTo(0.433, 3);
    // stop words only: they are the keywords then
    expect(keywordStems("what is the")).toEqual(["what", "is", "the"]);
  });

  it("merges duplicates (best score, first engine's fields), drops below 0.5, orders best first, two decimals", async () => {
    const { ask } = standIns({
      github: [
        hit("https://github.com/qdrant/qdrant", "qdrant/qdrant", "Vector database written in Rust"),
        hit("https://example.com/vector-db", "Notes", "vector database benchmarks, in short"),
      ],
      google: [
        hit("http://www.example.com/vector-db/#top", "Vector database benchmarks", "Every vector database, measured"),
        hit("https://example.com/gardening", "Gardening", "a vector of ideas"),
      ],
    });
    const r = await ask({ query: "vector database benchmarks on github" }, ctx);
    if (!r.ok) throw new Error(r.code);
    expect(r.value.results).toEqual([
      // google's copy scored 1.00, github's 0.80: one result, github's title and source, google's score
      {
        title: "Notes",
        link: "https://example.com/vector-db",
        snippet: expect.any(String),
        source: "github",
        relevance: 1,
      },
      // 2/3 of the keywords, in the snippet, first: 0.43 + 0 + 0.15
      {
        title: "qdrant/qdrant",
        link: "https://github.com/qdrant/qdrant",
        snippet: "Vector database written in Rust",
        source: "github",
        relevance: 0.58,
      },
    ]);
    expect(r.value.errors).toEqual([]);
  });

  it("keeps at most 20 results, ties in the engines' order", async () => {
    const many = Array.from({ length: 15 }, (_, i) => hit(`https://a.example/${i}`, "rust async runtime", ""));
    const more = Array.from({ length: 15 }, (_, i) => hit(`https://b.example/${i}`, "rust async runtime", ""));
    const { ask } = standIns({ github: many, google: more });
    const r = await ask({ query: "rust async runtime on github" }, ctx);
    if (!r.ok) throw new Error(r.code);
    expect(r.value.results).toHaveLength(20);
    const scores = r.value.results.map((x) => x.relevance);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.value.results.slice(0, 2).map((x) => x.link)).toEqual(["https://a.example/0", "https://b.example/0"]);
  });

  it("drops results dated before the window; undated ones stay", async () => {
    const { ask } = standIns({
      google: [
        hit("https://n.example/new", "kubernetes operators", "", "2026-11-24T08:00:00Z"),
        hit("https://n.example/old", "kubernetes operators", "", "2026-10-01"),
        hit("https://n.example/undated", "kubernetes operators", ""),
      ],
    });
    const r = await ask({ query: "kubernetes operators this week" }, ctx);
    expect(r.ok && r.value.results.map((x) => x.link)).toEqual(["https://n.example/new", "https://n.example/undated"]);
    expect(r.ok && r.value.results[0].published_date).toBe("2026-11-24T08:00:00Z");
  });

  it("lists a failed or throwing engine in errors and answers the others; every engine failed is a 502 value", async () => {
    const ok = standIns(
      { google: [hit("https://p.example/1", "diffusion models", "")] },
      { arxiv: "value", github: "throw" },
    );
    const r = await ok.ask({ query: "diffusion models papers on github" }, ctx);
    if (!r.ok) throw new Error(r.code);
    expect(r.value.errors).toEqual([
      { source: "arxiv", message: "The arxiv upstream answered 503" },
      { source: "github", message: "The github engine failed: socket hang up" },
    ]);
    expect(r.value.results.map((x) => x.source)).toEqual(["google"]);
    const none = standIns({}, { arxiv: "value", google: "value" });
    expect(await none.ask({ query: "diffusion papers" }, ctx)).toEqual({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message:
        "Every engine failed: arxiv (The arxiv upstream answered 503); google (The google upstream answered 503)",
    });
  });
});
