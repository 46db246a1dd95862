// crawl_results N (D-crawl-results-billing): the first N results get their page text, fetched at most a few at a
// time; a page that cannot be crawled keeps its result with `crawl_error` as /crawl would answer; a page the
// index fetched moments ago is served from its copy.

import type { Engines } from "@plumbline-kit/platform/engines";
import { describe, expect, it } from "vitest";
import { crawlResults } from "./crawl-results.ts";

const results = ["a", "b", "gone", "d", "e", "f", "g"].map((x) => ({
  title: x,
  link: `https://s.test/${x}`,
  snippet: "",
}));

describe("crawlResults", () => {
  it("crawls the first N, at most four at once, and reports a failed page in crawl_error", async () => {
    let running = 0;
    let peak = 0;
    const fetched: string[] = [];
    const crawl: Engines["crawl"] = async (r) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((res) => setTimeout(res, 10));
      running--;
      fetched.push(r.url);
      if (r.url.endsWith("/gone")) return { ok: false, code: "PLB_TARGET_GONE", message: "The target answered 410" };
      return {
        ok: true,
        value: { crawlParameters: r, results: { title: "", link: r.url, content: `text of ${r.url}` } },
      };
    };
    const out = await crawlResults(results, 6, crawl, { requestId: "t", variability: "normal", seed: 0 }, (link) =>
      link.endsWith("/b") ? "indexed copy of b" : null,
    );
    expect(fetched.sort()).toEqual(["a", "d", "e", "f", "gone"].map((x) => `https://s.test/${x}`));
    expect(peak).toBeLessThanOrEqual(4);
    expect(out.map((r) => r.content ?? null)).toEqual([
      "text of https://s.test/a",
      "indexed copy of b",
      null,
      "text of https://s.test/d",
      "text of https://s.test/e",
      "text of https://s.test/f",
      null,
    ]);
    expect(out[2]).toMatchObject({ crawl_error: { statusCode: 410, message: "The target answered 410" } });
    expect(out[6]).not.toHaveProperty("crawl_error");
  });
});
