// What must hold of every answer whatever the input (issue 6 "Properties": never a hang, never a dropped
// connection, never a 5xx) and what the spec says of any answer: listed status, body and headers that validate.
import type { Contract } from "../../spec/index.ts";
import type { HttpOutcome } from "../http/http-client.ts";
import { type CheckFailure, fail } from "./check-failure.ts";

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

export function conformanceFailures(
  contract: Contract,
  operationId: string,
  outcome: Extract<HttpOutcome, { ok: true }>,
): CheckFailure[] {
  const out: CheckFailure[] = [];
  if (outcome.jsonError) out.push(fail("response-schema", `${outcome.status}: the body is not the JSON it claims`));
  const body = contract.validators.checkResponse(operationId, outcome.status, outcome.contentType, outcome.json);
  if (body) out.push(fail("response-schema", `${outcome.status}: ${summarize(body.map((e) => e.message))}`));
  const headers = contract.validators.checkResponseHeaders(operationId, outcome.status, outcome.headers);
  if (headers) out.push(fail("response-headers", `${outcome.status}: ${summarize(headers.map((e) => e.message))}`));
  return out;
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
