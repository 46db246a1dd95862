// A hang is judged against the work asked for (issue 25): one call gets --request-timeout, a batch one allowance per
// round of entries its target runs at once, bounded by its deadline (D-batch-execution).
import { describe, expect, it } from "vitest";
import { answerAllowanceMs } from "../http/http-client.ts";

describe("answerAllowanceMs", () => {
  it("gives one call, a one-entry batch and a raw body the request timeout", () => {
    expect(answerAllowanceMs({ body: { query: "q" } }, 10_000)).toBe(10_000);
    expect(answerAllowanceMs({ body: [{ url: "https://example.com/" }] }, 10_000)).toBe(10_000);
    expect(answerAllowanceMs({ rawBody: "[1,2,3,4,5,6,7,8]" }, 10_000)).toBe(10_000);
    expect(answerAllowanceMs({}, 10_000)).toBe(10_000);
  });

  it("gives a batch one allowance per round of four entries, up to the 60 s deadline plus one allowance", () => {
    const batch = (n: number) => ({ body: Array.from({ length: n }, () => ({ url: "https://example.com/" })) });
    expect(answerAllowanceMs(batch(4), 10_000)).toBe(10_000);
    expect(answerAllowanceMs(batch(5), 10_000)).toBe(20_000);
    expect(answerAllowanceMs(batch(12), 2_000)).toBe(6_000);
    expect(answerAllowanceMs(batch(50), 10_000)).toBe(70_000);
    expect(answerAllowanceMs(batch(50), 1_000)).toBe(13_000);
  });
});
