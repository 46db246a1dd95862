// What must hold of every answer whatever the input (issue 6 "Properties": never a hang, never a dropped
// connection, never a 5xx) and what the spec says of any answer: the contract registry's rules (spec/checks).

import type { Contract } from "@plumbline-kit/contract";
import { type Exchange as JudgedExchange, judgeExchange } from "@plumbline-kit/contract/checks/index";
import type { FuzzRequest, HttpOutcome } from "../http/http-client.ts";
import { type CheckFailure, type CheckId, fail } from "./check-failure.ts";

/** `expected`: a 5xx the case had to get (a fixture URL that does not answer makes a 502, D-charging). */
export function transportFailures(outcome: HttpOutcome, expected: number | null = null): CheckFailure[] {
  if (outcome.ok) {
    return outcome.status >= 500 && outcome.status !== expected
      ? [fail("no-server-error", `answered ${outcome.status}`)]
      : [];
  }
  if (outcome.kind === "timeout") return [fail("no-hang", outcome.message)];
  return [fail("no-dropped-connection", `${outcome.kind}: ${outcome.message}`)];
}

/** The fuzzer's check each registry rule reports under (the rest: contract-rule, naming the rule). */
const CHECK_OF_RULE: Record<string, CheckId> = {
  "response-status-listed": "response-schema",
  "response-content-type": "response-schema",
  "response-schema": "response-schema",
  "response-headers": "response-headers",
  "auth-challenge": "response-headers",
  "rate-limit-retry-after": "response-headers",
  "rate-limit-headers": "response-headers",
  "batch-entries": "batch-summary",
  "batch-summary": "batch-summary",
  "batch-entry-cost": "charge-exact",
  "parameters-echo": "parameter-echo",
  "invalid-request-accepted": "negative-rejected",
  "validation-status": "error-names-field",
};

/** The fuzzer's answer as the contract registry reads it. */
export function judgedExchange(
  operationId: string,
  outcome: Extract<HttpOutcome, { ok: true }>,
  request?: FuzzRequest,
): JudgedExchange {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(outcome.headers)) if (v !== undefined) headers[k] = v;
  return {
    request: {
      method: request?.method ?? "GET",
      path: request?.path ?? "",
      headers: {
        ...(request?.headers ?? {}),
        ...(request ? { "content-type": request.contentType ?? "application/json" } : {}),
      },
      ...(request === undefined
        ? { unknown: true }
        : request.rawBody !== undefined
          ? { body: request.rawBody }
          : request.body !== undefined
            ? { json: request.body }
            : { body: "" }),
    },
    response: {
      status: outcome.status,
      headers,
      ...(outcome.body ? { body: outcome.body } : {}),
      ...(outcome.json !== undefined ? { json: outcome.json } : {}),
    },
    operationId,
  };
}

/**
 * What the spec says of any answer, judged by the contract registry's rules on the answer's side (spec/checks):
 * listed status, content type, body and headers, batch arithmetic, echoes, the error shape, content rules. Without
 * `request` the rules that need what was sent do not run.
 */
export function conformanceFailures(
  contract: Contract,
  operationId: string,
  outcome: Extract<HttpOutcome, { ok: true }>,
  request?: FuzzRequest,
): CheckFailure[] {
  const violations = judgeExchange(contract, judgedExchange(operationId, outcome, request), { side: "response" });
  // one failure per rule and check, its messages summarised (a oneOf answer fails both branches)
  const by = new Map<string, string[]>();
  for (const v of violations) {
    const list = by.get(v.rule) ?? [];
    list.push(v.message);
    by.set(v.rule, list);
  }
  return [...by].map(([rule, messages]) =>
    fail(CHECK_OF_RULE[rule] ?? "contract-rule", `${outcome.status}: ${rule}: ${summarize(messages)}`, rule),
  );
}

/**
 * A oneOf answer (single or batch form) fails both branches; the errors that are not "is required" are the ones
 * that matter, so they come first, and a long list is cut.
 */
function summarize(messages: string[]): string {
  const sorted = [
    ...messages.filter((m) => !m.endsWith("is required")),
    ...messages.filter((m) => m.endsWith("is required")),
  ];
  const shown = sorted.slice(0, 4).join("; ");
  return sorted.length > 4 ? `${shown}; … ${sorted.length - 4} more` : shown;
}
