// What valid input must get (issue 6 "Properties"): the documented success status, or 402 when the balance cannot
// cover the price; a batch whose entries succeed while the balance covers them (D-charging, D-crawl-batch). Each
// entry's cost and the summary's arithmetic are the contract registry's (spec/checks), judged with every answer. An entry naming a fixture-site URL
// that is not a page must get exactly what fetch-outcome.ts derives from the site's answer. Returns what the call
// must have cost, which the caller compares with the balance the target reports.
import type { Contract, OperationSpec } from "@plumbline-kit/contract";
import type { FuzzCase } from "../fuzz-case.ts";
import type { HttpOutcome } from "../http/http-client.ts";
import { type CheckFailure, fail } from "./check-failure.ts";
import { type EntryOutcome, entryOutcome } from "./fetch-outcome.ts";

export interface ValidVerdict {
  failures: CheckFailure[];
  /** credits the call must have taken from the balance */
  cost: number;
  /** the target answered 429: nothing is judged but the answer's shape */
  throttled: boolean;
  /** the failure status the case had to get (a 502 then is no server error) */
  expectedStatus: number | null;
}

type Obj = Record<string, unknown>;
type Answer = Extract<HttpOutcome, { ok: true }>;

/**
 * `fetches`: the target really fetches the URLs it is given, so the fixture outcomes stored with the case hold
 * (false on a target that advertises the mock's admin API: it fetches nothing and every URL is a page to it).
 */
export function judgeValidAnswer(
  contract: Contract,
  c: FuzzCase,
  answer: Answer,
  balance: number,
  fetches = true,
): ValidVerdict {
  const op = contract.operation(c.operationId);
  const success = op.statuses.filter((s) => s >= 200 && s < 300);
  const body = c.request.body;
  const entries = Array.isArray(body) ? body : [body];
  const prices = entries.map((e) => contract.prices.entryCredits(c.operationId, e));
  const outcomes = entries.map((e) => entryOutcome(op, e, fetches ? c.fetched : undefined));
  const verdict = (failures: CheckFailure[], cost: number, expectedStatus: number | null = null): ValidVerdict => ({
    failures,
    cost,
    throttled: false,
    expectedStatus,
  });
  if (answer.status === 429) return { ...verdict([], 0), throttled: true };
  const noneAffordable = prices.every((p) => p > balance) && prices.some((p) => p > 0);
  if (answer.status === 402) {
    const failures = noneAffordable
      ? []
      : [fail("status-conformance", `402 with a balance of ${balance} for a call costing ${prices.join("+")}`)];
    return verdict(failures, 0);
  }
  const single = Array.isArray(body) ? null : outcomes[0];
  if (single?.kind === "failure") return judgeFailure(single, answer.status, prices[0], noneAffordable, balance);
  if (
    !single &&
    !success.includes(answer.status) &&
    listBatch(op) &&
    due(entries, prices, outcomes, balance).length === 0
  ) {
    // D-crawl-batch: no entry can succeed; the platform answers the first entry's failure, free, rather than []
    const first = outcomes[0];
    const status = prices[0] > balance ? 402 : first.kind === "failure" ? first.status : null;
    if (status === answer.status) return verdict([], 0, status);
    const or = status === null ? "" : ` or ${status}, the first entry's failure`;
    return verdict([fail("status-conformance", `no entry can succeed: expected 200 []${or}; got ${answer.status}`)], 0);
  }
  if (!success.includes(answer.status)) {
    const why = noneAffordable ? "402" : success.join(" or ");
    return verdict([fail("status-conformance", `expected ${why}, got ${answer.status}`)], 0);
  }
  if (single) {
    const failures = noneAffordable
      ? [fail("status-conformance", `${answer.status} with a balance of ${balance} below the price ${prices[0]}`)]
      : [];
    return verdict(failures, prices[0]);
  }
  if (Array.isArray(answer.json)) return verdict(...judgeList(answer.json, entries, prices, outcomes, balance));
  return verdict(...judgeSummary((answer.json ?? {}) as Obj, prices, outcomes, balance));
}

/** A single body naming a URL that is not a page: exactly the derived status, charged or not. */
function judgeFailure(
  o: Extract<EntryOutcome, { kind: "failure" }>,
  status: number,
  price: number,
  noneAffordable: boolean,
  balance: number,
): ValidVerdict {
  const out: ValidVerdict = { failures: [], cost: 0, throttled: false, expectedStatus: o.status };
  if (status !== o.status)
    out.failures.push(fail("status-conformance", `expected ${o.status} (${o.why}), got ${status}`));
  else if (noneAffordable) {
    out.failures.push(fail("status-conformance", `${status} with a balance of ${balance} below the price ${price}`));
  } else if (o.charged) out.cost = price;
  return out;
}

/** Search and news batches: `results[]` entry by entry, then `summary`. */
function judgeSummary(
  json: Obj,
  prices: number[],
  outcomes: EntryOutcome[],
  balance: number,
): [CheckFailure[], number] {
  const failures: CheckFailure[] = [];
  const results = Array.isArray(json.results) ? (json.results as Obj[]) : [];
  // the entry count, each entry's cost and the summary's arithmetic are the contract registry's rules
  // (batch-entries, batch-entry-cost, batch-summary), judged with every answer in conformanceFailures
  let running = balance;
  let cost = 0;
  let refused = false;
  results.forEach((r, i) => {
    const price = prices[i] ?? 0;
    const expected = outcomes[i] ?? { kind: "success" };
    if (r.success === true) {
      if (price > running)
        failures.push(fail("charge-exact", `entry ${i} succeeded with ${running} credits left, price ${price}`));
      if (expected.kind === "failure")
        failures.push(fail("status-conformance", `entry ${i} succeeded: ${expected.why}`));
      running -= price;
      cost += price;
      return;
    }
    const status = (r.error as Obj | undefined)?.statusCode;
    if (status === 402 && (price > running || refused)) refused = true;
    else if (expected.kind === "failure" && status === expected.status) return;
    else if (typeof status === "number" && status >= 500)
      failures.push(fail("no-server-error", `entry ${i} failed with ${status}`));
    else
      failures.push(
        fail("status-conformance", `entry ${i} failed with ${status} while ${running} credits cover ${price}`),
      );
  });
  return [failures, cost];
}

interface Due {
  url: unknown;
  price: number;
  index: number;
  used: boolean;
}

/** The entries that must succeed: in order (D-charging), each the balance still covers and whose URL is a page. */
function due(entries: unknown[], prices: number[], outcomes: EntryOutcome[], balance: number): Due[] {
  const out: Due[] = [];
  let running = balance;
  for (const [i, e] of entries.entries()) {
    if (prices[i] > running) break;
    if (outcomes[i].kind !== "success") continue;
    running -= prices[i];
    out.push({ url: (e as Obj).url, price: prices[i], index: i, used: false });
  }
  return out;
}

/** The batch answer is a bare array of single answers (crawl, D-crawl-batch), not results with a summary. */
function listBatch(op: OperationSpec): boolean {
  const ok = [...op.responses.values()].find((r) => r.status >= 200 && r.status < 300);
  const schema = ok?.content["application/json"];
  return (schema?.oneOf ?? []).some((b) => b.type === "array");
}

/**
 * Crawl batches: an array of the responses that succeeded, in any order, matched by crawlParameters.url
 * (D-crawl-batch). Entries run in order (D-charging): each the balance covers and whose URL is a page must be
 * answered; once the balance runs out, and for entries whose URL is not a page, none may be.
 */
function judgeList(
  list: unknown[],
  entries: unknown[],
  prices: number[],
  outcomes: EntryOutcome[],
  balance: number,
): [CheckFailure[], number] {
  const failures: CheckFailure[] = [];
  const expected = due(entries, prices, outcomes, balance);
  let cost = 0;
  for (const item of list) {
    const url = ((item as Obj)?.crawlParameters as Obj | undefined)?.url;
    const match = expected.find((p) => !p.used && p.url === url);
    if (match) {
      match.used = true;
      cost += match.price;
      continue;
    }
    const failing = outcomes.find((o, i): o is Extract<EntryOutcome, { kind: "failure" }> => {
      return o.kind === "failure" && (entries[i] as Obj).url === url;
    });
    const why = failing
      ? `, which must fail (${failing.why})`
      : ", which was not asked, asked fewer times or not covered";
    failures.push(fail("status-conformance", `answer for ${JSON.stringify(url)}${why}`));
  }
  const missing = expected.filter((p) => !p.used);
  if (missing.length > 0) {
    const first = missing[0];
    failures.push(
      fail(
        "status-conformance",
        `${list.length} of ${entries.length} entries answered; entry ${first.index} (${JSON.stringify(first.url)}) ` +
          `is missing though the balance covers it${missing.length > 1 ? `, and ${missing.length - 1} more` : ""}`,
      ),
    );
  }
  return [failures, cost];
}
