// The compiler checked against the spec's own validators, in process: every valid case passes checkBody /
// checkParameters, every invalid case fails with its labelled status and (for 422) the labelled field and keyword.

import { type Contract, loadContract } from "@plumbline-kit/contract";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type OperationCases, operationCases } from "../arbitraries/operation-cases.ts";
import type { FuzzCase } from "../fuzz-case.ts";

let contract: Contract;
let cases: OperationCases[];
beforeAll(async () => {
  contract = await loadContract();
  cases = operationCases(contract.contractOperations);
});

/** What the contract's validators say about a case: the status it deserves and the errors[] it implies. */
function judge(c: FuzzCase): { status: number; errors: Array<{ field: string; code: string }> } {
  const { request } = c;
  if (request.method === "GET") {
    const url = new URL(request.path, "http://x");
    const check = contract.validators.checkParameters(c.operationId, { query: Object.fromEntries(url.searchParams) });
    return check.ok ? { status: 200, errors: [] } : { status: 400, errors: check.errors };
  }
  if (request.contentType && request.contentType !== "application/json") return { status: 400, errors: [] };
  let body: unknown = request.body;
  if (request.rawBody !== undefined) {
    try {
      body = JSON.parse(request.rawBody);
    } catch {
      return { status: 400, errors: [] };
    }
  }
  const check = contract.validators.checkBody(c.operationId, body);
  if (check.ok) return { status: 200, errors: [] };
  return check.kind === "shape" ? { status: 400, errors: [] } : { status: 422, errors: check.errors };
}

describe("schema → arbitrary compiler", () => {
  it("covers every operation with a body or query parameters", () => {
    expect(cases.map((c) => c.operationId).sort()).toEqual(
      ["crawl", "deepcrawl", "extract", "news", "screenshot", "search", "sitemap", "trending", "usage"].sort(),
    );
  });

  it("generates only bodies the contract accepts", () => {
    for (const c of cases) {
      fc.assert(
        fc.property(c.valid, (v) => {
          expect(judge(v), JSON.stringify(v.request).slice(0, 300)).toEqual({ status: 200, errors: [] });
        }),
        { numRuns: Number(process.env.FUZZ_SELFTEST_RUNS ?? 150), seed: Number(process.env.FUZZ_SELFTEST_SEED ?? 6) },
      );
    }
  });

  it("generates invalid cases whose single violation the contract rejects as labelled", () => {
    for (const c of cases) {
      if (!c.invalid) continue;
      fc.assert(
        fc.property(c.invalid, (v) => {
          const verdict = judge(v);
          const violation = v.violation;
          if (!violation) throw new Error("an invalid case without a violation");
          const what = `${violation.label}: ${JSON.stringify(v.request).slice(0, 300)}`;
          // a value refused outside the schema (trending platform) passes the schema: the target refuses it
          if (violation.kind === "not-accepted") {
            expect(verdict.status, what).toBe(200);
            return;
          }
          expect(verdict.status, what).toBe(violation.status);
          if (violation.field !== null) {
            expect(verdict.errors, what).toContainEqual(
              expect.objectContaining({ field: violation.field, code: violation.keyword }),
            );
          }
        }),
        { numRuns: Number(process.env.FUZZ_SELFTEST_RUNS ?? 300), seed: Number(process.env.FUZZ_SELFTEST_SEED ?? 6) },
      );
    }
  });

  it("reaches the boundaries: min, max and the longest batch show up", () => {
    const search = cases.find((c) => c.operationId === "search") as OperationCases;
    const seen = new Set<unknown>();
    let longest = 0;
    for (const v of fc.sample(search.valid, { numRuns: 1200, seed: 1 })) {
      const body = v.request.body;
      for (const e of Array.isArray(body) ? body : [body]) seen.add((e as { max_results?: number }).max_results);
      if (Array.isArray(body)) longest = Math.max(longest, body.length);
    }
    expect([1, 2, 49, 50].every((n) => seen.has(n))).toBe(true);
    expect(longest).toBe(50);
  });
});
