// What valid input must get (issue 6 "Properties"): the documented success status, or 402 when the balance cannot
// cover the price; a batch whose entries are charged one by one, failed entries costing 0, and whose summary
// counts them (interface-spec "Batch response"; D-charging, D-crawl-batch). Returns what the call must have cost,
// which the caller compares with the balance the target reports.
import type { Contract } from "../../spec/index.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import type { HttpOutcome } from "../http/http-client.ts";
import { type CheckFailure, fail } from "./check-failure.ts";

export interface ValidVerdict {
  failures: CheckFailure[];
  /** credits the call must have taken from the balance */
  cost: number;
  /** the target answered 429: nothing is judged but the answer's shape */
  throttled: boolean;
}

type Obj = Record<string, unknown>;
type Answer = Extract<HttpOutcome, { ok: true }>;

export function judgeValidAnswer(contract: Contract, c: FuzzCase, answer: Answer, balance: number): ValidVerdict {
  const op = contract.operation(c.operationId);
  const success = op.statuses.filter((s) => s >= 200 && s < 300);
  const body = c.request.body;
  const entries = Array.isArray(body) ? body : [body];
  const prices = entries.map((e) => contract.prices.entryCredits(c.operationId, e));
  if (answer.status === 429) return { failures: [], cost: 0, throttled: true };
  const noneAffordable = prices.every((p) => p > balance) && prices.some((p) => p > 0);
  if (answer.status === 402) {
    const failures = noneAffordable
      ? []
      : [fail("status-conformance", `402 with a balance of ${balance} for a call costing ${prices.join("+")}`)];
    return { failures, cost: 0, throttled: false };
  }
  if (!success.includes(answer.status)) {
    const why = noneAffordable ? "402" : success.join(" or ");
    return {
      failures: [fail("status-conformance", `expected ${why}, got ${answer.status}`)],
      cost: 0,
      throttled: false,
    };
  }
  if (!Array.isArray(body)) {
    const failures = noneAffordable
      ? [fail("status-conformance", `${answer.status} with a balance of ${balance} below the price ${prices[0]}`)]
      : [];
    return { failures, cost: prices[0], throttled: false };
  }
  if (Array.isArray(answer.json)) return judgeList(answer.json, entries, prices, balance);
  return judgeSummary((answer.json ?? {}) as Obj, prices, balance);
}

/** Search and news batches: `results[]` entry by entry, then `summary`. */
function judgeSummary(json: Obj, prices: number[], balance: number): ValidVerdict {
  const failures: CheckFailure[] = [];
  const results = Array.isArray(json.results) ? (json.results as Obj[]) : [];
  if (results.length !== prices.length) {
    failures.push(fail("batch-summary", `${prices.length} entries sent, ${results.length} answered`));
  }
  let running = balance;
  let cost = 0;
  let refused = false;
  results.forEach((r, i) => {
    const price = prices[i] ?? 0;
    if (r.success === true) {
      if (price > running)
        failures.push(fail("charge-exact", `entry ${i} succeeded with ${running} credits left, price ${price}`));
      if (r.cost !== price) failures.push(fail("charge-exact", `entry ${i} cost ${r.cost}, price ${price}`));
      running -= price;
      cost += price;
      return;
    }
    if (r.cost !== 0) failures.push(fail("charge-exact", `failed entry ${i} cost ${r.cost}, not 0`));
    const status = (r.error as Obj | undefined)?.statusCode;
    if (status === 402 && (price > running || refused)) refused = true;
    else if (typeof status === "number" && status >= 500)
      failures.push(fail("no-server-error", `entry ${i} failed with ${status}`));
    else
      failures.push(
        fail("status-conformance", `entry ${i} failed with ${status} while ${running} credits cover ${price}`),
      );
  });
  const s = (json.summary ?? {}) as Obj;
  const successful = results.filter((r) => r.success === true).length;
  const costs = results.reduce((sum, r) => sum + (typeof r.cost === "number" ? r.cost : 0), 0);
  const expected = { total: results.length, successful, failed: results.length - successful, totalCost: costs };
  for (const [k, v] of Object.entries(expected)) {
    if (s[k] !== v) failures.push(fail("batch-summary", `summary.${k} is ${JSON.stringify(s[k])}, entries say ${v}`));
  }
  return { failures, cost, throttled: false };
}

/** Crawl batches: an array of the responses that succeeded, in any order, matched by crawlParameters.url (D-crawl-batch). */
function judgeList(list: unknown[], entries: unknown[], prices: number[], balance: number): ValidVerdict {
  const failures: CheckFailure[] = [];
  const pending = entries.map((e, i) => ({ url: (e as Obj).url, price: prices[i], used: false }));
  let cost = 0;
  for (const item of list) {
    const url = ((item as Obj)?.crawlParameters as Obj | undefined)?.url;
    const match = pending.find((p) => !p.used && p.url === url);
    if (!match)
      failures.push(
        fail("status-conformance", `answer for ${JSON.stringify(url)}, which was not asked or asked fewer times`),
      );
    else {
      match.used = true;
      cost += match.price;
    }
  }
  let affordable = 0;
  let running = balance;
  for (const p of prices) {
    if (p > running) break;
    running -= p;
    affordable++;
  }
  if (list.length < affordable) {
    failures.push(
      fail(
        "status-conformance",
        `${list.length} of ${entries.length} entries answered; the balance covers ${affordable}`,
      ),
    );
  }
  return { failures, cost, throttled: false };
}
