// Batches (interface-spec "Batch response", "POST /search", "POST /news", "POST /crawl"; D-charging, D-crawl-batch):
// one entry per request item in order, each costing its price when it succeeds and 0 when it fails, a summary that
// adds up, and a crawl batch answered with an array of crawl responses for URLs asked. The one arithmetic of a
// batch summary every judge uses.
import type { PriceTable } from "../price-table.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

/** A search or news batch answered with success: the items sent and the entries answered. */
function batchAnswer(ctx: ExchangeContext): { sent: unknown[]; body: Obj | undefined; entries: Obj[] } | null {
  const id = ctx.op?.operationId;
  if ((id !== "search" && id !== "news") || ctx.status !== 200 || !Array.isArray(ctx.sent) || !ctx.json?.ok)
    return null;
  const body = obj(ctx.json.value);
  const entries = Array.isArray(body?.results) ? (body.results as unknown[]).map((e) => obj(e) ?? {}) : [];
  return { sent: ctx.sent, body, entries };
}

export interface SummaryCheck {
  /** what the entries say the summary must hold; totalCost null when an entry's cost is not a number */
  expected: { total: number; successful: number; failed: number; totalCost: number | null };
  /** the summary members that do not add up */
  mismatches: Array<{ member: string; expected: number; actual: unknown }>;
}

/**
 * The batch summary arithmetic: total is the items sent, successful and failed count the entries, totalCost sums
 * their costs. An entry whose cost is not a number leaves totalCost unjudged (null): that entry is a batch-entry-cost
 * violation of its own, never counted as 0 nor summed into NaN.
 */
export function summaryArithmetic(itemsSent: number, entries: Obj[], summary: unknown): SummaryCheck {
  const successful = entries.filter((e) => e.success === true).length;
  const numeric = entries.every((e) => typeof e.cost === "number" && Number.isFinite(e.cost));
  const expected = {
    total: itemsSent,
    successful,
    failed: entries.length - successful,
    totalCost: numeric ? entries.reduce<number>((s, e) => s + (e.cost as number), 0) : null,
  };
  const s = obj(summary) ?? {};
  const mismatches: SummaryCheck["mismatches"] = [];
  for (const [member, v] of Object.entries(expected))
    if (v !== null && s[member] !== v) mismatches.push({ member, expected: v, actual: s[member] });
  return { expected, mismatches };
}

/** What one entry must cost (D-charging): its price when it succeeded, surcharges included, else 0. */
export function entryCostProblem(prices: PriceTable, operationId: string, item: unknown, entry: Obj): string | null {
  const succeeded = entry.success === true;
  if (typeof entry.cost !== "number" || !Number.isFinite(entry.cost)) return "cost is not a number";
  const price = succeeded ? prices.entryCredits(operationId, item) : 0;
  return entry.cost === price ? null : `${succeeded ? "succeeded" : "failed"} and costs ${entry.cost}, not ${price}`;
}

export const batchEntries: ExchangeRule = {
  kind: "exchange",
  id: "batch-entries",
  title: "A search or news batch answers one entry per request item, each success echoing its item's query",
  side: "response",
  severity: "critical",
  basis: "POST /search; POST /news; Batch response",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const b = batchAnswer(ctx);
    if (!b) return [];
    const out: Violation[] = [];
    if (b.entries.length !== b.sent.length)
      out.push({
        rule: this.id,
        message: `a batch of ${b.sent.length} answered ${b.entries.length} entries`,
        expected: String(b.sent.length),
        actual: String(b.entries.length),
      });
    b.entries.forEach((e, i) => {
      const item = obj(b.sent[i]);
      const data = obj(e.data);
      if (e.success !== true || !item || !data) return;
      const query = obj(data.searchParameters)?.query;
      if (query !== item.query)
        out.push({
          rule: this.id,
          message: `entry ${i} answers another item`,
          expected: JSON.stringify(item.query),
          actual: JSON.stringify(query),
        });
    });
    return out;
  },
};

export const batchEntryCost: ExchangeRule = {
  kind: "exchange",
  id: "batch-entry-cost",
  title: "A batch entry costs its price when it succeeds (surcharges included) and 0 when it fails",
  side: "response",
  severity: "critical",
  basis: "Batch response; D-charging; D-crawl-results-billing",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const b = batchAnswer(ctx);
    if (!b || !ctx.op) return [];
    const op = ctx.op.operationId;
    const out: Violation[] = [];
    b.entries.forEach((e, i) => {
      const problem = entryCostProblem(ctx.contract.prices, op, b.sent[i], e);
      if (problem)
        out.push({
          rule: this.id,
          message: `entry ${i} ${problem}`,
          expected: String(e.success === true ? ctx.contract.prices.entryCredits(op, b.sent[i]) : 0),
          actual: JSON.stringify(e.cost),
        });
    });
    return out;
  },
};

export const batchSummary: ExchangeRule = {
  kind: "exchange",
  id: "batch-summary",
  title: "A batch summary adds up: total, successful, failed and totalCost match the entries",
  side: "response",
  severity: "critical",
  basis: "Batch response",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const b = batchAnswer(ctx);
    if (!b) return [];
    return summaryArithmetic(b.sent.length, b.entries, b.body?.summary).mismatches.map((m) => ({
      rule: this.id,
      message: `summary.${m.member} does not add up`,
      expected: String(m.expected),
      actual: JSON.stringify(m.actual),
    }));
  },
};

export const crawlBatch: ExchangeRule = {
  kind: "exchange",
  id: "crawl-batch-urls",
  title: "A crawl batch answers an array of crawl responses, each for a requested URL, none more often than asked",
  side: "response",
  severity: "major",
  basis: "POST /crawl; D-crawl-batch",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    if (ctx.op?.operationId !== "crawl" || ctx.status !== 200 || !Array.isArray(ctx.sent) || !ctx.json?.ok) return [];
    const body = ctx.json.value;
    if (!Array.isArray(body))
      return [
        {
          rule: this.id,
          message: "a crawl batch was answered with a single object, not an array",
          expected: "an array of crawl responses",
          actual: body === null ? "null" : typeof body,
        },
      ];
    // each URL may come back as many times as it was asked (D-crawl-batch: only those that succeeded come back)
    const asked = new Map<unknown, number>();
    for (const x of ctx.sent) asked.set(obj(x)?.url, (asked.get(obj(x)?.url) ?? 0) + 1);
    const urls = body.map((r) => obj(obj(r)?.crawlParameters)?.url);
    const out: Violation[] = [];
    const seen = new Map<unknown, number>();
    urls.forEach((u, i) => {
      const n = (seen.get(u) ?? 0) + 1;
      seen.set(u, n);
      if (!asked.has(u))
        out.push({
          rule: this.id,
          message: `crawl batch result ${i} is for an URL not asked`,
          expected: [...asked.keys()].map(String).join(" | "),
          actual: String(u),
        });
      else if (n > (asked.get(u) ?? 0))
        out.push({
          rule: this.id,
          message: `crawl batch answers ${String(u)} more often than it was asked`,
          expected: String(asked.get(u)),
          actual: String(n),
        });
    });
    return out;
  },
};
