// The proxy's passive catch rate (issue 35): a client's journey through the proxy in front of each seeded fault (the
// conformance suite's fault doubles and the fuzzer's) is noticed, a response-side violation, whenever the journey's
// traffic exercises the fault; the faults it does not exercise are listed here with the reason. In front of the
// clean mock the same journey leaves no response-side violation and judges its balance windows (none skipped: its
// calls are sequential). The conformance suite's verdicts are `plumbline bench proxy-catch`'s (docs/proxy.md).
import { beforeAll, describe, expect, it } from "vitest";
import { benchProxyCatch, type ProxyCatchResult } from "../../bench/proxy-catch-bench.ts";

/** The seeded faults a client's journey does not reach, and why. */
const NOT_EXERCISED: Record<string, string> = {
  "a validator that refuses the largest batch the contract allows (50 entries)":
    "the journey's batches hold two entries; only the suite sends the 50-entry edge",
  "a validator that still refuses sogou and yandex (the interface's list only)":
    "the journey searches with the default engine",
  "a payment refusal quoting one entry's price for a batch": "the journey pays with a key, never a Payment credential",
  "a cloud-metadata target crawled instead of refused": "the journey never asks for a cloud-metadata address",
  "a token endpoint that takes a code twice, or with a wrong verifier or redirect URI":
    "the journey uses an API key: no OAuth flow",
  "a rotated-out refresh token accepted again": "the journey uses an API key: no OAuth flow",
  "a revoked access token still answered": "the journey uses an API key: no OAuth flow",
  "an MCP endpoint whose 401 names no resource_metadata": "the journey calls the REST operations, not /mcp",
  "an MCP tool whose input schema is not the document's": "the journey calls the REST operations, not /mcp",
  "an MCP tool call charged twice": "the journey calls the REST operations, not /mcp",
  "an MCP tool call whose REST error is reported as a success": "the journey calls the REST operations, not /mcp",
  "an agent skills index whose digest is not the artifact's": "the journey reads no discovery document",
};

let result: ProxyCatchResult;
beforeAll(async () => {
  result = await benchProxyCatch({ conformance: false, out: null });
}, 600_000);

describe("the proxy watching a client's journey", () => {
  it("in front of the clean mock: no response-side violation, every balance window judged", () => {
    expect(result.clean).toEqual({});
    expect(result.cleanBalance.skipped).toEqual({});
    expect(result.cleanBalance.judged).toBeGreaterThanOrEqual(7);
  });

  it("exercises every seeded fault but those listed, each for its reason", () => {
    const unexercised = result.faults.filter((f) => f.exercised === 0).map((f) => f.name);
    expect(unexercised.sort()).toEqual(Object.keys(NOT_EXERCISED).sort());
    expect(result.faults.length).toBeGreaterThanOrEqual(48);
  });

  it("notices every fault the journey exercises: a response-side violation", () => {
    const missed = result.faults.filter((f) => f.exercised > 0 && Object.keys(f.noticed).length === 0);
    expect(missed.map((f) => f.name)).toEqual([]);
    expect(result.totals.noticed).toBe(result.totals.exercised);
  });

  it("names each charge fault under balance-charged", () => {
    const charged = [
      "every crawl charged twice",
      "rejected calls charged",
      "status polling charged",
      "charge-rejected",
    ];
    for (const name of charged)
      expect(result.faults.find((f) => f.name === name)?.noticed, name).toHaveProperty("balance-charged");
  });
});
