// The suite's answers judged by the contract's registry (spec/checks): checks keep their planning (which requests,
// credits, skips) and hand the answers to the registry's rules. Only the answer's side is judged: the suite sends
// invalid requests on purpose.

import type { Contract } from "@plumbline-kit/contract";
import { type Exchange as JudgedExchange, judgeExchange, type Violation } from "@plumbline-kit/contract/checks/index";
import { grouped } from "./check-helpers.ts";
import type { Exchange, Failure, RunContext } from "./types.ts";

/** The suite's exchange as the registry reads it. */
export function judgedExchange(ex: Exchange): JudgedExchange {
  // a hand-made exchange may hold a path only
  const url = new URL(ex.request.url, "http://target.invalid");
  const out: JudgedExchange = {
    request: {
      method: ex.request.method.toUpperCase(),
      path: `${url.pathname}${url.search}`,
      headers: ex.request.headers,
      ...(ex.sent !== undefined ? { json: ex.sent } : ex.request.body !== undefined ? { body: ex.request.body } : {}),
    },
    operationId: ex.operationId,
    ...(ex.at !== undefined ? { at: ex.at } : {}),
  };
  if (ex.response)
    out.response = {
      status: ex.response.status,
      headers: ex.response.headers,
      ...(ex.raw ? { body: ex.raw } : {}),
    };
  return out;
}

/**
 * Every answer-side rule of the registry (or the ones named) on one of the suite's exchanges: those of an
 * operation, and the contract's own routes (a deepcrawl's zip).
 */
export function judgeAnswer(contract: Contract, ex: Exchange, rules?: string[]): Violation[] {
  if (!ex.response) return [];
  return judgeExchange(contract, judgedExchange(ex), { rules, side: "response" });
}

/**
 * The registry's `rules` over the run's exchanges (those `keep` selects, default every one of an operation), one
 * failure per distinct message listing the exchanges that show it; `label` prefixes each message (e.g. the
 * operation and status).
 */
export function answerFailures(
  ctx: RunContext,
  rules: string[],
  keep?: (ex: Exchange) => boolean,
  label: (ex: Exchange) => string = (ex) => `${ex.operationId} ${ex.response?.status}: `,
): Failure[] {
  const items = [];
  for (const ex of ctx.http.exchanges) {
    if (ex.operationId === null || !ex.response || (keep && !keep(ex))) continue;
    for (const v of judgeAnswer(ctx.contract, ex, rules))
      items.push({ message: `${label(ex)}${v.message}`, ex, expected: v.expected, actual: v.actual });
  }
  return grouped(items);
}
