// Billing as an outside client observes it: GET /usage before and after (interface-spec "What the service does",
// "Limits" 3; D-charging for what the interface leaves open).

import { baseBody } from "@plumbline-kit/contract/bounds";
import { judgeAnswer } from "../answer-judge.ts";
import { balance, describe, failure, json, measureCharge, ok, status, unreadableBalance } from "../check-helpers.ts";
import { operationFor } from "../http-client.ts";
import { BATCHES, batchCallsProbe } from "../probes/batch-calls.ts";
import { boundCasesProbe } from "../probes/bound-cases.ts";
import { deepcrawlProbe } from "../probes/deepcrawl-run.ts";
import { malformedBodiesProbe } from "../probes/malformed-bodies.ts";
import { pricedCallsProbe } from "../probes/priced-calls.ts";
import type { CheckDefinition, Failure, RunContext } from "../types.ts";

const pricePerOperation: CheckDefinition = {
  id: "billing-price-per-operation",
  title: "Each paid operation lowers the balance by exactly its price in credits",
  severity: "critical",
  section: "What the service does",
  basis: { kind: "contract" },
  operations: (c) => c.prices.paid().map((p) => p.operationId),
  probes: [pricedCallsProbe, deepcrawlProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    const calls = await ctx.probe(pricedCallsProbe);
    const measured = calls.map((c) => ({
      id: c.operationId,
      expected: c.expected,
      m: c.measured,
      ex: c.measured.result,
    }));
    if (ctx.scope.has("deepcrawl")) {
      const dc = await ctx.probe(deepcrawlProbe);
      measured.push({
        id: "deepcrawl",
        expected: ctx.contract.prices.entryCredits("deepcrawl", dc.body),
        m: {
          result: dc.start,
          before: dc.before,
          after: dc.afterStart,
          charged: chargedBetween(dc.before, dc.afterStart),
        },
        ex: dc.start,
      });
    }
    for (const { id, expected, m, ex } of measured) {
      if (!status(ex) || (status(ex) as number) >= 300) {
        failures.push(failure(`${id}: the priced call did not succeed`, [ex], "2xx", describe(ex)));
      } else if (m.charged === null) failures.push(unreadableBalance(m));
      else if (m.charged !== expected) {
        failures.push(
          failure(
            `${id} charged ${m.charged} credits`,
            [m.before.exchange, ex, m.after.exchange],
            `${expected}`,
            `${m.charged}`,
          ),
        );
      }
    }
    return { failures };
  },
};

function chargedBetween(a: { value: number | null }, b: { value: number | null }): number | null {
  return a.value === null || b.value === null ? null : a.value - b.value;
}

const SURCHARGED = [
  { operationId: "search", path: "/search", body: { query: "plumbline surcharge", max_results: 3, crawl_results: 2 } },
  { operationId: "news", path: "/news", body: { query: "plumbline surcharge news", max_results: 2, crawl_results: 1 } },
];

const crawlResultsSurcharge: CheckDefinition = {
  id: "billing-crawl-results-surcharge",
  title: "crawl_results N adds N crawls to the bill of a search or news call",
  severity: "critical",
  section: "Limits 3",
  basis: { kind: "contract" },
  operations: SURCHARGED.map((s) => s.operationId),
  cost: (c, _alt, scope) =>
    SURCHARGED.filter((x) => scope.has(x.operationId)).reduce(
      (s, x) => s + c.prices.entryCredits(x.operationId, x.body),
      0,
    ),
  async run(ctx) {
    const failures: Failure[] = [];
    for (const s of SURCHARGED.filter((x) => ctx.scope.has(x.operationId))) {
      const m = await measureCharge(ctx, this.id, () => ctx.http.call(this.id, "POST", s.path, { body: s.body }));
      const expected = ctx.contract.prices.entryCredits(s.operationId, s.body);
      if (status(m.result) !== 200)
        failures.push(failure(`${s.operationId} failed`, [m.result], "200", describe(m.result)));
      else if (m.charged === null) failures.push(unreadableBalance(m));
      else if (m.charged !== expected)
        failures.push(
          failure(
            `${s.operationId} with crawl_results ${s.body.crawl_results} charged ${m.charged}`,
            [m.before.exchange, m.result, m.after.exchange],
            `${expected}`,
            `${m.charged}`,
          ),
        );
    }
    return { failures };
  },
};

const batchCost: CheckDefinition = {
  id: "billing-batch-cost",
  title: "A batch costs the sum of its entries: entry cost = its price, summary.totalCost = the balance drop",
  severity: "critical",
  section: "Batch response",
  basis: { kind: "decision", decision: "D-charging" },
  operations: BATCHES.map((b) => b.operationId),
  probes: [batchCallsProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    for (const b of await ctx.probe(batchCallsProbe)) {
      const { result: ex, charged } = b.measured;
      const shown = [b.measured.before.exchange, ex, b.measured.after.exchange];
      if (status(ex) !== 200) {
        failures.push(failure(`${b.operationId} batch failed`, [ex], "200", describe(ex)));
        continue;
      }
      if (charged === null) {
        failures.push(unreadableBalance(b.measured));
        continue;
      }
      if (b.operationId === "crawl") {
        // D-crawl-batch: only the URLs that succeeded come back; each is one crawl
        const answer = json<unknown>(ex);
        const returned = Array.isArray(answer) ? answer.length : 0;
        const expected = returned * ctx.contract.prices.entryCredits("crawl", b.body[0]);
        if (charged !== expected)
          failures.push(
            failure(`crawl batch of ${returned} results charged ${charged}`, shown, `${expected}`, `${charged}`),
          );
        continue;
      }
      const body = json<{ results?: Array<{ success?: boolean; cost?: number }>; summary?: { totalCost?: number } }>(
        ex,
      );
      const entries = body?.results ?? [];
      let expected = 0;
      entries.forEach((e, i) => {
        expected += e.success ? ctx.contract.prices.entryCredits(b.operationId, b.body[i]) : 0;
      });
      // each entry's own cost: the registry's batch-entry-cost (a non-numeric cost is named, never counted as 0)
      for (const v of judgeAnswer(ctx.contract, ex, ["batch-entry-cost"]))
        failures.push(failure(`${b.operationId} batch ${v.message}`, [ex], v.expected, v.actual));
      if (charged !== expected)
        failures.push(
          failure(
            `${b.operationId} batch charged ${charged}`,
            shown,
            `${expected} (sum of entry prices)`,
            `${charged}`,
          ),
        );
      if (body?.summary?.totalCost !== charged)
        failures.push(
          failure(
            `${b.operationId} batch summary.totalCost differs from the balance drop`,
            shown,
            `${charged}`,
            `${body?.summary?.totalCost}`,
          ),
        );
    }
    return { failures };
  },
};

const failedEntryFree: CheckDefinition = {
  id: "billing-failed-entry-free",
  title: "Batch entries that fail (a zero balance) cost nothing and report cost 0",
  severity: "major",
  section: "Batch response",
  basis: { kind: "decision", decision: "D-charging" },
  operations: ["search"],
  preconditions: ["broke-key"],
  async run(ctx) {
    const body = [{ query: "plumbline broke first" }, { query: "plumbline broke second", crawl_results: 1 }];
    const before = await balance(ctx, this.id, "broke");
    if (before.value !== 0)
      return {
        failures: [],
        skip: `the broke account has ${before.value} credits, not 0`,
        skipKind: "broke-key",
      };
    const ex = await ctx.http.call(this.id, "POST", "/search", { body, auth: "broke" });
    const after = await balance(ctx, this.id, "broke");
    const failures: Failure[] = [];
    if (status(ex) === 402) return ok(["the whole batch was refused with 402 (no entry ran)"]);
    const entries = json<{ results?: Array<{ success?: boolean; cost?: number }> }>(ex)?.results ?? [];
    for (const [i, e] of entries.entries()) {
      if (e.success !== false || e.cost !== 0)
        failures.push(failure(`entry ${i} of a zero-balance batch`, [ex], "success false, cost 0", JSON.stringify(e)));
    }
    if (after.value !== 0)
      failures.push(failure("the zero balance changed", [before.exchange, ex, after.exchange], "0", `${after.value}`));
    return { failures };
  },
};

const freeOperations: CheckDefinition = {
  id: "billing-free-operations",
  title: "Usage (every period), health, discovery and deepcrawl status polling cost nothing",
  severity: "critical",
  section: "GET /usage; GET /deepcrawl/status/{taskId}; GET /health",
  basis: { kind: "contract" },
  async run(ctx) {
    const calls = [
      "/usage",
      ...usagePeriods(ctx).map((p) => `/usage?period=${p}`),
      "/health",
      "/deepcrawl/status/dc_plumbline_free_check",
      "/openapi.json",
    ].filter((p) => ctx.scope.has(operationFor(ctx.contract, "GET", p) ?? ""));
    const m = await measureCharge(ctx, this.id, async () => {
      const out = [];
      for (const p of calls) out.push(await ctx.http.call(this.id, "GET", p));
      return out;
    });
    if (m.charged === null) return { failures: [unreadableBalance(m)] };
    if (m.charged === 0) return ok();
    return {
      failures: [
        failure(
          `free calls charged ${m.charged} credits`,
          [m.before.exchange, ...m.result, m.after.exchange],
          "0",
          `${m.charged}`,
        ),
      ],
    };
  },
};

/** Every value of the usage operation's `period` parameter (GET /usage). */
function usagePeriods(ctx: RunContext): string[] {
  const period = ctx.contract.operation("usage").parameters.find((p) => p.name === "period");
  return (period?.schema.enum ?? []).map(String);
}

const rejectedFree: CheckDefinition = {
  id: "billing-rejected-free",
  title: "Rejected calls (400, 422) cost nothing",
  severity: "critical",
  section: "Errors",
  basis: { kind: "decision", decision: "D-charging" },
  probes: [boundCasesProbe, malformedBodiesProbe],
  async run(ctx) {
    const { rejectedCharges } = await ctx.probe(boundCasesProbe);
    const malformed = await ctx.probe(malformedBodiesProbe);
    const groups = [...rejectedCharges, { operationId: "malformed bodies", measured: malformed.measured }];
    const failures: Failure[] = [];
    for (const g of groups) {
      const m = g.measured;
      if (m.charged === null) failures.push(unreadableBalance(m));
      else if (m.charged !== 0) {
        const refused = m.result.filter((e) => (status(e) ?? 0) >= 400);
        failures.push(
          failure(
            `${g.operationId}: ${refused.length} rejected calls charged ${m.charged} credits`,
            [m.before.exchange, ...refused, m.after.exchange],
            "0",
            `${m.charged}`,
          ),
        );
      }
    }
    return { failures };
  },
};

/**
 * The zero-balance calls (issue 27): every paid operation in scope, each with its minimal valid body (a crawl's at a
 * reserved example address: the refusal comes before any fetch). On the broke account, so they cost the run nothing.
 */
function brokeCalls(ctx: RunContext): Array<{ operationId: string; method: string; path: string; body: unknown }> {
  return ctx.contract.contractOperations
    .filter((o) => o.pricing && ctx.scope.has(o.operationId))
    .map((o) => ({
      operationId: o.operationId,
      method: o.method.toUpperCase(),
      path: o.path,
      body: o.operationId === "crawl" ? { url: "https://example.com/plumbline-broke" } : baseBody(o),
    }));
}

const zeroBalance402: CheckDefinition = {
  id: "billing-zero-balance-402",
  title: "A zero-balance account calling any paid operation gets 402 with an application/problem+json body",
  severity: "critical",
  section: "What the service does 3; Errors",
  basis: { kind: "contract" },
  preconditions: ["broke-key"],
  async run(ctx) {
    const calls = brokeCalls(ctx);
    if (calls.length === 0)
      return { failures: [], skip: "no paid operation is among --operations", skipKind: "not-selected" };
    const failures: Failure[] = [];
    for (const call of calls) {
      const ex = await ctx.http.call(this.id, call.method, call.path, { body: call.body, auth: "broke" });
      const ct = ex.response?.contentType.split(";")[0].trim();
      if (status(ex) === 402 && ct === "application/problem+json") continue;
      failures.push(
        failure(
          `${call.operationId}: a zero-balance call was not refused with a 402 problem`,
          [ex],
          "402 application/problem+json",
          `${describe(ex)} ${ct}`,
        ),
      );
    }
    return failures.length
      ? { failures }
      : ok([`refused with a 402 problem: ${calls.map((c) => c.operationId).join(", ")}`]);
  },
};

export const BILLING_CHECKS = [
  pricePerOperation,
  crawlResultsSurcharge,
  batchCost,
  failedEntryFree,
  freeOperations,
  rejectedFree,
  zeroBalance402,
];
