// The `live` version of the contract (D-live-version): a complete document beside the seed, loaded with
// `loadContract({ version: "live" })`, kept as valid, linted and self-consistent as the seed, with its own derived
// files; the seed stays the default.
import { readFileSync } from "node:fs";
import { LIVE_DECISIONS_PATH } from "@plumbline-kit/tools/spec/cli";
import { lintDocument } from "@plumbline-kit/tools/spec/lint";
import { generateTypes, LIVE_TYPES_PATH } from "@plumbline-kit/tools/spec/types-gen";
import { beforeAll, describe, expect, it } from "vitest";
import { decisionReferences, renderDecisionsPage } from "../decisions.ts";
import { contractPath, LIVE_SPEC_PATH, readRawDocument } from "../document.ts";
import { type Contract, loadContract } from "../index.ts";

type Obj = Record<string, unknown>;
let live: Contract;
let seed: Contract;
beforeAll(async () => {
  live = await loadContract({ version: "live" });
  seed = await loadContract();
});

describe("loadContract({ version })", () => {
  it("loads the seed by default and the live document by name; an unknown version is refused by name", async () => {
    expect(seed.contractVersion).toBe("seed");
    expect(live.contractVersion).toBe("live");
    expect(live.version).toBe("1.0.0+live");
    expect(await loadContract({ version: "seed" })).toBe(seed);
    expect(contractPath("live")).toBe(LIVE_SPEC_PATH);
    expect(() => contractPath("beta")).toThrow('unknown contract version "beta" (known: seed, live)');
    expect(seed.findOperation("ask")).toBeUndefined();
    expect(seed.findOperation("feedback")).toBeUndefined();
  });

  it("adds /ask (5 credits) and /feedback (free, 10 a minute) to the seed's operations", () => {
    const ids = (c: Contract) => c.contractOperations.map((o) => o.operationId);
    expect(ids(live).filter((id) => !ids(seed).includes(id))).toEqual(["ask", "feedback"]);
    expect(ids(seed).filter((id) => !ids(live).includes(id))).toEqual([]);
    expect(live.prices.get("ask")).toMatchObject({ credits: 5, price: "0.015" });
    expect(live.prices.get("feedback")).toBeNull();
    expect(live.operation("feedback").statuses).toEqual([201, 400, 401, 413, 415, 422, 429, 500, 503]);
    expect(live.operation("ask").statuses).toEqual([200, 400, 401, 402, 422, 429, 500, 502]);
    expect(live.rateLimits.perOperation).toEqual({ screenshot: 10, feedback: 10 });
    // every price of the seed is the live one's
    for (const p of seed.prices.paid()) expect(live.prices.get(p.operationId)).toEqual(seed.prices.get(p.operationId));
  });

  it("takes yandex and refuses sogou; the seed still takes both", () => {
    for (const [c, service, ok] of [
      [live, "yandex", true],
      [live, "sogou", false],
      [seed, "sogou", true],
      [seed, "yandex", true],
    ] as const) {
      expect(c.validators.checkBody("search", { query: "q", search_service: service }).ok, `${service}`).toBe(ok);
    }
  });

  it("accepts crawl's enable_fallback, in a batch entry too; the seed refuses it", () => {
    expect(live.validators.checkBody("crawl", { url: "https://example.com/", enable_fallback: false }).ok).toBe(true);
    expect(live.validators.checkBody("crawl", [{ url: "https://example.com/", enable_fallback: true }]).ok).toBe(true);
    expect(seed.validators.checkBody("crawl", { url: "https://example.com/", enable_fallback: false }).ok).toBe(false);
  });

  it("types the new result fields, which the seed's open result schema admits as they are", () => {
    const result = {
      title: "example-org/vector-bench",
      link: "https://github.com/example-org/vector-bench",
      snippet: "Benchmarks",
      published_date: "2026-11-24T09:12:44Z",
      kind: "repo",
      stars: 1204,
      language: "Rust",
    };
    const answer = { searchParameters: { query: "q" }, results: [result] };
    expect(live.validators.checkResponse("search", 200, "application/json", answer)).toBeNull();
    expect(seed.validators.checkResponse("search", 200, "application/json", answer)).toBeNull();
    const bad = { ...answer, results: [{ ...result, published_date: "24/11/2026", kind: "fork" }] };
    expect(live.validators.checkResponse("search", 200, "application/json", bad)).not.toBeNull();
  });

  it("bounds /ask's body to a query of 1..500 characters and nothing else, and its results to relevance ≥ 0.5", () => {
    expect(live.validators.checkBody("ask", { query: "x".repeat(500) }).ok).toBe(true);
    expect(live.validators.checkBody("ask", { query: "x".repeat(501) }).ok).toBe(false);
    expect(live.validators.checkBody("ask", { query: "q", search_service: "github" }).ok).toBe(false);
    const answer = (relevance: number) => ({
      query: "q",
      intent: { search_query: "q", sources: ["google"], time_range: null },
      results: [{ title: "t", link: "https://example.com/", snippet: "s", source: "google", relevance }],
      errors: [],
    });
    expect(live.validators.checkResponse("ask", 200, "application/json", answer(0.5))).toBeNull();
    expect(live.validators.checkResponse("ask", 200, "application/json", answer(0.49))).not.toBeNull();
  });
});

describe("live/openapi.yaml", () => {
  it("passes Redocly's recommended rules without an error or warning", async () => {
    expect(await lintDocument(LIVE_SPEC_PATH)).toEqual([]);
  }, 90_000);

  it("has request and response examples that validate against their schemas", () => {
    const failures: string[] = [];
    for (const op of live.operations) {
      if (op.requestSchema && Object.keys(op.requestExamples).length === 0) failures.push(`${op.operationId}: none`);
      for (const [name, value] of Object.entries(op.requestExamples)) {
        const r = live.validators.checkBody(op.operationId, value);
        if (!r.ok) failures.push(`${op.operationId} request example ${name}: ${JSON.stringify(r)}`);
      }
      const responses = ((live.document.paths as Obj)[op.path] as Obj)[op.method] as { responses: Obj };
      for (const [status, res] of Object.entries(responses.responses)) {
        for (const [ct, media] of Object.entries(((res as Obj).content ?? {}) as Obj)) {
          for (const [name, ex] of Object.entries(((media as Obj).examples ?? {}) as Obj)) {
            const errors = live.validators.checkResponse(op.operationId, Number(status), ct, (ex as Obj).value);
            if (errors) failures.push(`${op.operationId} ${status} example ${name}: ${JSON.stringify(errors)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("resolves every x-decision reference, uses every decision, and writes each in full", () => {
    const raw = readRawDocument(LIVE_SPEC_PATH);
    const ids = new Set(live.decisions.map((d) => d.id));
    expect(decisionReferences(raw).filter((r) => !ids.has(r.id))).toEqual([]);
    const text = JSON.stringify({ ...raw, "x-decisions": undefined });
    const prose = JSON.stringify(live.decisions.map((d) => d.decision));
    expect(live.decisions.filter((d) => !text.includes(d.id) && !prose.includes(d.id)).map((d) => d.id)).toEqual([]);
    for (const d of live.decisions) {
      for (const key of ["topic", "contract", "decision", "reason"] as const)
        expect(d[key], `${d.id}.${key}`).toBeTruthy();
    }
    // the seed's decisions are kept, one rewritten (the engines); the live ones are added
    const seedIds = seed.decisions.map((d) => d.id);
    expect(seedIds.filter((id) => !ids.has(id))).toEqual([]);
  });

  it("live/types.gen.ts is what openapi-typescript generates now", async () => {
    expect(readFileSync(LIVE_TYPES_PATH, "utf8")).toBe(await generateTypes(LIVE_SPEC_PATH, "live"));
  }, 90_000);

  it("live/DECISIONS.md is what its decisions and the error catalogue render to", () => {
    expect(readFileSync(LIVE_DECISIONS_PATH, "utf8")).toBe(renderDecisionsPage(readRawDocument(LIVE_SPEC_PATH)));
  });
});
