// The payment-refusal verdict (issue 17): a body can be judged accepted by validation without paying for it.
// D-payment-challenge: an `Authorization: Payment …` credential is checked after validation (400/422 never spend
// it) and before any work, and a bad one is refused with a 402 problem (PLB_PAYMENT_INVALID) whose fresh
// challenge quotes that call's price; D-auth: a Payment credential is never answered 401. So a costly valid edge
// (a 50-entry batch, crawl_results at its maximum, a deepcrawl) sent with an unpayable credential is accepted by
// validation when it draws that 402 at the contract's price, and nothing is spent: no account key is presented.
// A target qualifies per operation, calibrated once per run: a known-invalid body with the unpayable credential
// answers 422 naming its field (validation first), the operation's example body a 402 refusal at its price.

import type { Contract } from "@plumbline-kit/contract";
import { baseBody } from "@plumbline-kit/contract/bounds";
import { paymentChallenges } from "@plumbline-kit/contract/payment-challenges";
import { judgeAnswer } from "../answer-judge.ts";
import { describe } from "../check-helpers.ts";
import type { HttpClient } from "../http-client.ts";
import type { Exchange } from "../types.ts";

/** A Payment credential no target can accept: base64url JSON that is no credential of any challenge. */
export const UNPAYABLE_CREDENTIAL = `Payment ${Buffer.from('{"plumbline":"conformance: not a payment"}').toString("base64url")}`;

/**
 * Valid edge groups priced above this many credits are judged by the refusal where the target qualifies; the
 * cheaper ones are executed (paid) so their real answers are seen.
 */
export const COSTLY_CREDITS = 5;

export const REFUSAL_NOTE = "accepted by validation: payment refused, nothing spent";

const CALIBRATION_PROPERTY = "plumbline_calibration";

export interface RefusalCalibration {
  /** operations whose costly valid edges are judged by the refusal */
  operations: ReadonlySet<string>;
  /** per calibrated operation, why it qualifies or not */
  notes: string[];
  /** set when no calibration request got an answer at all (an unreachable target): the first transport error */
  unreachable?: string;
}

export const NO_REFUSAL: RefusalCalibration = { operations: new Set(), notes: [] };

/** Sends a body with the unpayable credential and no account key (nothing can be charged to the account). */
export function sendUnpaid(http: HttpClient, by: string, contract: Contract, operationId: string, body: unknown) {
  const op = contract.operation(operationId);
  return http.call(by, op.method.toUpperCase(), op.path, {
    body,
    auth: "none",
    headers: { authorization: UNPAYABLE_CREDENTIAL },
  });
}

/** Whether the exchange was sent with the unpayable credential (and no account key). */
export const sentUnpaid = (ex: Exchange) => ex.request.headers.authorization === UNPAYABLE_CREDENTIAL;

/**
 * What keeps an answer from being a payment refusal at the contract's price of the body sent: [] when it is one
 * (402 problem PLB_PAYMENT_INVALID, a Payment challenge whose request amount is the body's price).
 */
export function refusalProblems(contract: Contract, ex: Exchange): string[] {
  if (!sentUnpaid(ex)) return ["not sent with the unpayable Payment credential"];
  if (ex.response?.status !== 402) return [`${describe(ex)}, not a 402 payment refusal`];
  const body = (ex.response.json ?? {}) as Record<string, unknown>;
  // the challenge's amount against the body's price is the registry's (payment-challenge, its `amount` finding)
  const amount = judgeAnswer(contract, ex, ["payment-challenge"]).filter((v) => v.code === "amount");
  return [
    body.code !== "PLB_PAYMENT_INVALID" && `code ${String(body.code)}, not PLB_PAYMENT_INVALID`,
    paymentChallenges(ex.response.headers["www-authenticate"]).length === 0 && "no Payment challenge",
    ...amount.map((v) => v.message),
  ].filter((x): x is string => typeof x === "string");
}

function namesEvery(ex: Exchange, expected: Array<{ field?: string; code?: string }>): boolean {
  const errors = (ex.response?.json as { errors?: Array<{ field?: unknown; code?: unknown }> } | undefined)?.errors;
  return Array.isArray(errors) && expected.every((x) => errors.some((e) => e.field === x.field && e.code === x.code));
}

/** Calibrates the given operations, sequentially (two requests each, neither spending anything). */
export async function calibrateRefusal(
  http: HttpClient,
  contract: Contract,
  operationIds: string[],
): Promise<RefusalCalibration> {
  const operations = new Set<string>();
  const notes: string[] = [];
  const sent: Exchange[] = [];
  const by = "probe:bound-cases";
  for (const id of operationIds) {
    const valid = baseBody(contract.operation(id));
    const invalid = { ...valid, [CALIBRATION_PROPERTY]: true };
    const check = contract.validators.checkBody(id, invalid);
    const expected = !check.ok && "errors" in check ? (check.errors ?? []) : [];
    const rejected = await sendUnpaid(http, by, contract, id, invalid);
    const refused = await sendUnpaid(http, by, contract, id, valid);
    sent.push(rejected, refused);
    const problems = [
      !(rejected.response?.status === 422 && expected.length > 0 && namesEvery(rejected, expected)) &&
        `an invalid body with a Payment credential answered ${describe(rejected)}, not 422 naming its field`,
      ...refusalProblems(contract, refused).map((p) => `a valid body with an unpayable credential: ${p}`),
    ].filter((x): x is string => typeof x === "string");
    if (problems.length === 0) operations.add(id);
    notes.push(problems.length === 0 ? `${id}: validation first, then a 402 refusal` : `${id}: ${problems[0]}`);
  }
  const silent = sent.length > 0 && sent.every((e) => !e.response);
  return { operations, notes, ...(silent ? { unreachable: sent[0].error ?? "no answer" } : {}) };
}
