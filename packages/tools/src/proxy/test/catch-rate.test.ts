// The proxy's passive catch rate (issue 35): a client's journey through the proxy in front of each seeded fault (the
// conformance suite's fault doubles and the fuzzer's; the live contract's through a journey of its own, issue 39) is
// noticed, a response-side violation, whenever the journey's traffic exercises the fault and traffic can show it;
// the faults it does not exercise, and the two only the service knows of, are listed here with the reason. In front
// of the clean mock the same journey leaves no response-side violation and judges its balance windows (none skipped:
// its calls are sequential), and so in front of the reference. The conformance suite's verdicts on the same faults
// are fault-injection.test.ts's and the fuzzer's fault tests'; `plumbline bench proxy-catch --reference` reports all
// of it (docs/proxy.md).

import { benchProxyCatch, type ProxyCatchResult } from "@plumbline-kit/bench/proxy-catch-bench";
import { beforeAll, describe, expect, it } from "vitest";

/** The seeded faults a client's journey does not reach, and why. */
const NOT_EXERCISED: Record<string, string> = {
  "news accepting page, a field of search":
    "the journey sends news only its own fields; only the suite's derived refusals send page",
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

/** Faults a journey exercises that passive traffic cannot show, and why (the suite's steering judges them). */
const NOT_VISIBLE: Record<string, string> = {
  "an /ask engine that failed left out of errors": "the proxy does not know which engine failed",
  "a report answered 201 while its store failed": "the proxy does not see the store",
};

/** The rule that names each fault the journey exercises (the proxy may report others beside it). */
const CAUGHT_BY: Record<string, string> = {
  "a batch summary that does not add up": "batch-summary",
  "batch entries in reverse order": "batch-entries",
  "no x-request-id": "request-id-echo",
  "deepcrawl answering 200 instead of 202": "response-status-listed",
  "news served to an empty account": "balance-charged",
  "every crawl charged twice": "balance-charged",
  "out-of-range values accepted (422 turned into 200)": "invalid-request-accepted",
  "rejected calls charged": "balance-charged",
  "status polling charged": "balance-charged",
  "a corrupt zip": "deepcrawl-zip-valid",
  "401 without resource_metadata": "auth-challenge",
  "error bodies without ok:false": "error-body-members",
  "a payment challenge quoting the wrong price": "payment-challenge",
  "more results than max_results": "max-results",
  "a screenshot answered as JPEG when PNG was asked": "screenshot-image",
  "a screenshot one viewport pixel narrower than asked": "screenshot-pixel-size",
  "every screenshot encoded and labelled as PNG whatever the format asked": "screenshot-image",
  "screenshot bytes cut short after an intact header": "screenshot-image",
  "extract results that ignore the response_format (a required field dropped, an object for an array)":
    "extract-results-match-format",
  "the OpenAI-style response_format wrapper ignored (the page's main facts instead)": "extract-results-match-format",
  "a deepcrawl zip without manifest.json": "deepcrawl-zip-valid",
  "deepcrawl documents without front matter (manifest sizes kept consistent)": "deepcrawl-zip-layout",
  "trending answers whose trendingParameters leave out max_results": "parameters-echo",
  "more trending results than max_results": "max-results",
  "a payment challenge without its expiry": "payment-challenge",
  "a completed deepcrawl status without r2Key": "deepcrawl-completed-package",
  "a completed deepcrawl task reported processing again on later polls": "deepcrawl-terminal-stays",
  "a finished task's zipUrl serving another package on a later download": "deepcrawl-zip-stays",
  "crawl content that keeps the page's script text": "crawl-text-clean",
  "type sitemap listing a link of another host": "sitemap-same-host",
  "accept-out-of-range": "invalid-request-accepted",
  "accept-unknown-properties": "invalid-request-accepted",
  "charge-rejected": "balance-charged",
  "miscount-batch-summary": "batch-summary",
  // the double leaves success: true on the task it holds at processing; a task that never ends is no passive
  // violation (the contract sets no deadline)
  "deepcrawl-stalls": "client-deepcrawl-success-unfinished",
  "drop-connection": "upstream-answers",
  // the live contract's, through the live journey (/ask and /feedback)
  "an /ask result of relevance below 0.5 returned": "ask-results-ranked",
  "/ask results not best first": "ask-results-ranked",
  "an /ask call not charged": "balance-charged",
  "the eleventh report within a minute accepted": "feedback-rate-window",
};

let result: ProxyCatchResult;
beforeAll(async () => {
  result = await benchProxyCatch({ conformance: false, reference: true, out: null });
}, 600_000);

describe("the proxy watching a client's journey", () => {
  it("in front of the clean mock: no response-side violation, every balance window judged", () => {
    expect(result.clean).toEqual({});
    expect(result.liveClean).toEqual({});
    expect(result.cleanBalance.skipped).toEqual({});
    expect(result.cleanBalance.judged).toBeGreaterThanOrEqual(7);
  });

  it("in front of the reference: no response-side violation, every balance window judged", () => {
    expect(result.reference?.noticed).toEqual({});
    expect(result.reference?.balance.skipped).toEqual({});
    expect(result.reference?.balance.judged).toBeGreaterThanOrEqual(7);
  });

  it("exercises every seeded fault but those listed, each for its reason", () => {
    const unexercised = result.faults.filter((f) => f.exercised === 0).map((f) => f.name);
    expect(unexercised.sort()).toEqual(Object.keys(NOT_EXERCISED).sort());
    expect(result.faults.length).toBeGreaterThanOrEqual(54);
    expect(result.faults.filter((f) => f.source === "live").length).toBe(6);
  });

  it("notices every fault the journey exercises that traffic can show: a response-side violation", () => {
    const missed = result.faults.filter((f) => f.exercised > 0 && Object.keys(f.noticed).length === 0);
    expect(missed.map((f) => f.name).sort()).toEqual(Object.keys(NOT_VISIBLE).sort());
    expect(result.totals.noticed).toBe(result.totals.exercised - Object.keys(NOT_VISIBLE).length);
    // the bench counts them apart, never as misses (its exit code stays 0)
    expect(result.totals.missed).toEqual([]);
    expect(result.totals.blind.sort()).toEqual(Object.keys(NOT_VISIBLE).sort());
  });

  it("names each fault by the rule that owns it", () => {
    const exercised = result.faults.filter((f) => f.exercised > 0 && !(f.name in NOT_VISIBLE));
    expect(exercised.map((f) => f.name).sort()).toEqual(Object.keys(CAUGHT_BY).sort());
    const wrong = exercised.filter((f) => !(CAUGHT_BY[f.name] in f.noticed));
    expect(wrong.map((f) => `${f.name}: ${Object.keys(f.noticed).join(", ")}`)).toEqual([]);
  });
});
