// The payment-refusal verdict's planning and judging, without a target: which bound cases go unpaid, that every case
// still goes somewhere, that the cheap edges stay executed, and that a refusal at another price is no acceptance.

import { type Contract, loadContract } from "@plumbline-kit/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { makeScope } from "../operation-scope.ts";
import { boundCasesPlan, boundRequests, refusalCandidates } from "../probes/bound-cases.ts";
import { COSTLY_CREDITS, REFUSAL_NOTE, refusalProblems, UNPAYABLE_CREDENTIAL } from "../probes/payment-refusal.ts";
import type { Exchange } from "../types.ts";

let primary: Contract;
let alt: Contract;
beforeAll(async () => {
  primary = await loadContract();
  alt = await loadContract({ profile: "alt-bounds" });
});

const everyScope = () => {
  const s = makeScope(primary, []);
  if (!s.ok) throw new Error(s.error);
  return s.scope;
};
const membersOf = (rs: ReturnType<typeof boundRequests>) =>
  rs.flatMap((r) => r.group.members.map((m) => `${r.kind === "carried" ? "carried" : "sent"} ${m.case.label}`)).sort();

describe("bound requests with the payment-refusal verdict", () => {
  it("sends the costly groups unpaid and pays for the cheap ones, every case still judged once", () => {
    const scope = everyScope();
    const candidates = refusalCandidates(primary, alt, scope);
    expect(candidates.sort()).toEqual(["crawl", "deepcrawl", "news", "search"]);
    const refusal = new Set(candidates);
    const paid = boundRequests(primary, alt, scope);
    const refused = boundRequests(primary, alt, scope, refusal);
    // the same cases, whichever verdict judges them
    expect(membersOf(refused)).toEqual(membersOf(paid));
    const price = (r: (typeof refused)[number]) => primary.prices.requestCredits(r.operationId, r.group.body);
    for (const r of refused.filter((x) => x.kind !== "rejected" && x.kind !== "carried")) {
      if (r.unpaid) expect(refusal.has(r.operationId)).toBe(true);
      // a paid request over the threshold is only ever the carrier of several cheap edges (a batch of them)
      if (!r.unpaid && price(r) > COSTLY_CREDITS) {
        expect(Array.isArray(r.group.body)).toBe(true);
        for (const m of r.group.members)
          expect(primary.prices.requestCredits(r.operationId, m.case.body)).toBeLessThanOrEqual(COSTLY_CREDITS);
      }
    }
    // the largest batch still goes, whole and valid in both sets, unpaid; the cheap edges are executed beside it
    for (const op of ["search", "news", "crawl"]) {
      const batch = refused.find((r) => r.operationId === op && r.kind === "valid" && r.unpaid);
      expect(batch?.group.body, op).toHaveLength(50);
      for (const k of [primary, alt]) expect(k.validators.checkBody(op, batch?.group.body).ok).toBe(true);
    }
    const cheap = refused.filter((r) => r.operationId === "search" && r.kind === "valid" && !r.unpaid);
    expect(cheap.flatMap((r) => r.group.members.map((m) => m.case.label))).toContain('/search_service = "google"');
    // crawl_results at its maximum (a 51-credit entry in the alt set) is judged by the refusal, alone
    const surcharge = refused.find((r) => r.operationId === "search" && r.kind === "differing" && r.unpaid);
    expect(surcharge?.group.members.map((m) => m.case.label)).toEqual(["/crawl_results = maximum 50"]);
  });

  it("costs the plan lower where calibrated, and the same as before elsewhere", () => {
    const scope = everyScope();
    const before = boundCasesPlan(primary, alt, scope);
    const after = boundCasesPlan(primary, alt, scope, new Set(["search", "news", "crawl", "deepcrawl"]));
    expect(after.get("crawl")).toMatchObject({ credits: 0, unpaid: 1, paidCredits: before.get("crawl")?.credits });
    expect(after.get("news")?.credits).toBeLessThan(20);
    expect(after.get("screenshot")).toEqual(before.get("screenshot"));
    for (const row of before.values()) expect(row.unpaid).toBe(0);
  });
});

describe("judging a payment refusal", () => {
  const exchange = (o: { status: number; amount: string; credential?: string; code?: string }): Exchange => {
    const request = Buffer.from(JSON.stringify({ amount: o.amount, currency: "usd" })).toString("base64url");
    return {
      id: 1,
      by: "probe:bound-cases",
      operationId: "search",
      request: { method: "POST", url: "/search", headers: { authorization: o.credential ?? UNPAYABLE_CREDENTIAL } },
      response: {
        status: o.status,
        headers: {
          "www-authenticate": `Payment id="x", realm="h", method="test", intent="charge", request="${request}"`,
        },
        contentType: "application/problem+json",
        json: { ok: false, code: o.code ?? "PLB_PAYMENT_INVALID" },
        text: "",
        bytes: 0,
      },
      sent: [{ query: "a" }, { query: "b", crawl_results: 50 }],
      durationMs: 0,
    };
  };

  it("accepts a 402 refusal quoting the body's contract price (52 × 0.003), sent with the unpayable credential", () => {
    expect(refusalProblems(primary, exchange({ status: 402, amount: "0.156" }))).toEqual([]);
    expect(REFUSAL_NOTE).toMatch(/nothing spent/);
  });

  it("refuses another price, another status or code, and an answer to a request sent otherwise", () => {
    expect(refusalProblems(primary, exchange({ status: 402, amount: "0.006" }))).toEqual([
      "request amount 0.006 is not the price 0.156",
    ]);
    expect(refusalProblems(primary, exchange({ status: 422, amount: "0.156" }))[0]).toMatch(/not a 402/);
    expect(refusalProblems(primary, exchange({ status: 402, amount: "0.156", code: "PLB_PAYMENT_EXPIRED" }))).toEqual([
      "code PLB_PAYMENT_EXPIRED, not PLB_PAYMENT_INVALID",
    ]);
    expect(refusalProblems(primary, exchange({ status: 402, amount: "0.156", credential: "Bearer KEY" }))).toEqual([
      "not sent with the unpayable Payment credential",
    ]);
  });
});
