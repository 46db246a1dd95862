// Judging each finished exchange with every rule of the contract's registry (spec/checks) that applies to passive
// traffic: the request against its operation, the answer against the document for that operation and status, the
// invariants one exchange shows (batch arithmetic, echoes, max_results) and those a sequence shows (deepcrawl task
// states, the balance across paid calls, a task's zip across downloads: tracked for the proxy's lifetime, fed every
// exchange, those that match no operation or got no answer too). What is the proxy's own: undoing
// Content-Encoding, and an upstream that never answered.

import type { Contract } from "@plumbline-kit/contract";
import {
  createContext,
  createSequenceJudges,
  type Exchange as JudgedExchange,
  judgeExchange,
} from "@plumbline-kit/contract/checks/index";
import type { Exchange } from "../exchange.ts";
import { decodeBody } from "../har/body-decoding.ts";
import { headerRecord, headerValue } from "../hop-headers.ts";
import type { OperationMatcher } from "../operation-match.ts";
import type { RuleId } from "./rules.ts";

export interface Violation {
  rule: RuleId;
  operationId: string | null;
  exchangeId: number;
  message: string;
  expected?: string;
  actual?: string;
}

export interface SequenceTotals {
  /** balance windows (two reads by one credential and the calls between) judged */
  balanceWindows: number;
  /** windows not judged, by reason (never a violation when the sequence is ambiguous) */
  balanceSkipped: Record<string, number>;
}

export interface ExchangeJudge {
  judge(ex: Exchange): Violation[];
  sequences(): SequenceTotals;
}

/** The ledger a bearer credential's calls are charged to: the upstream's, or in hybrid mode the mock's. */
function credentialOf(ex: Exchange): string | undefined {
  const auth = headerValue(ex.request.headers, "authorization");
  return auth && /^Bearer\s/i.test(auth) ? `${ex.servedBy === "mock" ? "mock" : "upstream"} ${auth}` : undefined;
}

const MAX_DECODED = 64 * 1024 * 1024;

/** The proxy's exchange as the registry reads it (headers by name, the answer's body decoded). */
export function judgedExchange(
  ex: Exchange,
  operationId: string | null | undefined,
  params: Record<string, string>,
): { exchange: JudgedExchange; decodeError?: string } {
  const exchange: JudgedExchange = {
    request: {
      method: ex.request.method,
      path: ex.request.path,
      headers: headerRecord(ex.request.headers),
      // a request that never arrived whole (too large, cut off, too slow) has no body to judge
      ...(ex.request.unread ? {} : { body: ex.request.body }),
      credential: credentialOf(ex),
    },
    concurrent: ex.concurrent,
    operationId,
    ...(operationId ? { pathParams: params } : {}),
    at: ex.startedAt + ex.timings.send + ex.timings.wait,
  };
  if (!ex.response) return { exchange };
  const r = ex.response;
  const headers = headerRecord(r.headers);
  let decodeError: string | undefined;
  let body: Buffer | undefined;
  if (!r.truncated) {
    const decoded = decodeBody(r.body, headers["content-encoding"], MAX_DECODED);
    if (decoded.ok) body = decoded.bytes;
    else decodeError = decoded.reason;
  }
  exchange.response = { status: r.status, headers, body, truncated: r.truncated !== undefined };
  return { exchange, decodeError };
}

type Tracker = ReturnType<typeof createSequenceJudges>[number] & {
  judged?: () => number;
  skipped?: () => Record<string, number>;
};

export function createExchangeJudge(contract: Contract, matcher: OperationMatcher): ExchangeJudge {
  const sequences: Tracker[] = createSequenceJudges(contract, { passive: true });
  const balance = sequences.find((t) => t.skipped && t.judged);
  return {
    sequences: () => ({ balanceWindows: balance?.judged?.() ?? 0, balanceSkipped: balance?.skipped?.() ?? {} }),
    judge(ex) {
      const match = matcher(ex.request.method, ex.request.path);
      const operationId = match?.op.operationId ?? null;
      const out: Violation[] = [];
      const add = (v: { rule: string; message: string; expected?: string; actual?: string }) =>
        out.push({ ...v, operationId, exchangeId: ex.id });
      const { exchange, decodeError } = judgedExchange(ex, operationId, match?.params ?? {});
      // the sequences see every exchange: a zip download matches no operation, a call with no answer may have been
      // charged, a refusal by the proxy (--errors) was not
      const observe = () => {
        const ctx = createContext(contract, exchange);
        for (const s of sequences) for (const v of s.observe(ctx)) add(v);
      };
      const upstreamSilent = !ex.response && ex.error && !ex.error.startsWith("the client closed");
      if (!match) {
        if (upstreamSilent) add({ rule: "upstream-answers", message: ex.error as string });
        // no operation: only a route of the contract's own (a deepcrawl's zip) is judged, by the registry
        if (ex.response && ex.servedBy !== "proxy")
          for (const v of judgeExchange(contract, exchange, { passive: true, sequences })) add(v);
        else observe();
        return out;
      }
      // the proxy's own answers (its --errors refusals, its 502s) come from the spec's serializer: the request is
      // still judged, the answer is not
      if (!ex.response || ex.servedBy === "proxy") {
        const requestOnly = { ...exchange, response: undefined };
        for (const v of judgeExchange(contract, requestOnly, { passive: true })) add(v);
        if (upstreamSilent) add({ rule: "upstream-answers", message: ex.error as string });
        observe();
        return out;
      }
      // an answer of a listed status: the registry feeds the sequences itself (one context for every rule)
      const listed = match.op.statuses.includes(ex.response.status);
      for (const v of judgeExchange(contract, exchange, { passive: true, ...(listed ? { sequences } : {}) })) add(v);
      const json = /[/+]json\b/.test(String(exchange.response?.headers["content-type"] ?? ""));
      if (decodeError && json && !out.some((v) => v.rule === "response-status-listed"))
        add({ rule: "response-schema", message: decodeError });
      if (!listed) observe();
      return out;
    },
  };
}
