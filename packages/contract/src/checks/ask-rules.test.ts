// ask-results-ranked and ask-intent-shape (D-ask-relevance, D-ask-intent, D-ask-charging) on answers of the live
// contract's POST /ask: a good answer passes both; each fault a client would be misled by is named. Under the seed
// there is no /ask to judge.
import { beforeAll, describe, expect, it } from "vitest";
import type { Contract } from "../contract.ts";
import { loadContract } from "../index.ts";
import { judgeExchange } from "./registry.ts";
import type { Exchange } from "./types.ts";

let live: Contract;
let seed: Contract;
beforeAll(async () => {
  live = await loadContract({ version: "live" });
  seed = await loadContract();
});

const json = { "content-type": "application/json" };
const result = (link: string, relevance: number, source = "github") => ({
  title: "t",
  link,
  snippet: "s",
  source,
  relevance,
});
const good = {
  query: "vector databases on github this week",
  intent: { search_query: "vector databases", sources: ["github", "google"], time_range: "week" },
  results: [result("https://github.com/a/b", 0.91), result("https://example.com/x", 0.74, "google")],
  errors: [],
};
function exchange(answer: unknown, status = 200): Exchange {
  return {
    request: { method: "POST", path: "/ask", headers: { authorization: "Bearer k", ...json }, body: '{"query":"q"}' },
    response: { status, headers: json, body: JSON.stringify(answer) },
  };
}
const judged = (answer: unknown, c: Contract = live) =>
  judgeExchange(c, exchange(answer), { rules: ["ask-results-ranked", "ask-intent-shape"] }).map(
    (v) => `${v.rule}: ${v.message}`,
  );

describe("the /ask rules", () => {
  it("pass a ranked, merged answer whose intent names its engines", () => {
    expect(judged(good)).toEqual([]);
    expect(judged({ ...good, results: [], errors: [{ source: "github", message: "timeout" }] })).toEqual([]);
  });

  it("name results not best first, below 0.5, with three decimals, repeated, or from an engine not searched", () => {
    expect(judged({ ...good, results: [good.results[1], good.results[0]] })).toEqual([
      "ask-results-ranked: results[1] scores higher than the result before it: not best first",
    ]);
    expect(judged({ ...good, results: [result("https://github.com/a/b", 0.42)] })).toEqual([
      "ask-results-ranked: results[0].relevance is out of 0.5..1",
    ]);
    expect(judged({ ...good, results: [result("https://github.com/a/b", 0.915)] })).toEqual([
      "ask-results-ranked: results[0].relevance has more than two decimals",
    ]);
    expect(
      judged({ ...good, results: [result("https://github.com/a/b", 0.9), result("http://www.github.com/a/b/", 0.8)] }),
    ).toEqual(["ask-results-ranked: results[1] is the page of results[0]: duplicates are merged"]);
    expect(judged({ ...good, results: [result("https://reddit.com/r/x", 0.9, "reddit")] })).toEqual([
      "ask-results-ranked: results[0].source is not an engine of intent.sources",
    ]);
  });

  it("name an intent of no engine, more than five or one twice, empty keywords, and errors that do not fit it", () => {
    const intent = (sources: string[], search_query = "q") => ({
      ...good,
      results: [],
      intent: { ...good.intent, sources, search_query },
    });
    expect(judged(intent([]))).toEqual(["ask-intent-shape: intent.sources names no engine or more than five"]);
    expect(judged(intent(["a", "b", "c", "d", "e", "f"]))).toEqual([
      "ask-intent-shape: intent.sources names no engine or more than five",
    ]);
    expect(judged(intent(["github", "github"]))).toEqual(["ask-intent-shape: intent.sources names an engine twice"]);
    expect(judged(intent(["github"], ""))).toEqual(["ask-intent-shape: intent.search_query is empty"]);
    // a blank request is searched as sent (D-ask-request)
    expect(judged({ ...intent(["google"], " "), query: " " })).toEqual([]);
    expect(judged({ ...good, errors: [{ source: "x", message: "down" }] })).toEqual([
      "ask-intent-shape: errors names x, an engine intent.sources does not",
    ]);
    const allFailed = {
      ...good,
      results: [],
      errors: [
        { source: "github", message: "down" },
        { source: "google", message: "down" },
      ],
    };
    expect(judged(allFailed)).toEqual([
      "ask-intent-shape: every engine failed, yet the call answered 200 (and was charged): it is a 502, free (D-ask-charging)",
    ]);
  });

  it("judge nothing under the seed, which has no /ask", () => {
    const all = judgeExchange(seed, exchange({ ...good, results: [good.results[1], good.results[0]] }));
    expect(all.filter((v) => v.rule.startsWith("ask-"))).toEqual([]);
  });
});
