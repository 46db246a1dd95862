// Judging each finished exchange with every rule of the contract's registry (spec/checks) that applies to passive
// traffic: the request against its operation, the answer against the document for that operation and status, the
// invariants one exchange shows (batch arithmetic, echoes, max_results) and those a sequence shows (deepcrawl task
// states, tracked for the proxy's lifetime). What is the proxy's own: undoing Content-Encoding, and an upstream
// that never answered.
import { createJudge, type Exchange as JudgedExchange } from "../../spec/checks/index.ts";
import type { Contract } from "../../spec/index.ts";
import type { Exchange } from "../exchange.ts";
import { decodeBody } from "../har/body-decoding.ts";
import { headerRecord } from "../hop-headers.ts";
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

export interface ExchangeJudge {
  judge(ex: Exchange): Violation[];
}

const MAX_DECODED = 64 * 1024 * 1024;

/** The proxy's exchange as the registry reads it (headers by name, the answer's body decoded). */
export function judgedExchange(
  ex: Exchange,
  operationId: string | null,
  params: Record<string, string>,
): { exchange: JudgedExchange; decodeError?: string } {
  const exchange: JudgedExchange = {
    request: {
      method: ex.request.method,
      path: ex.request.path,
      headers: headerRecord(ex.request.headers),
      // a request that never arrived whole (too large, cut off, too slow) has no body to judge
      ...(ex.request.unread ? {} : { body: ex.request.body }),
    },
    operationId,
    pathParams: params,
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

export function createExchangeJudge(contract: Contract, matcher: OperationMatcher): ExchangeJudge {
  const registry = createJudge(contract, { passive: true });
  return {
    judge(ex) {
      const match = matcher(ex.request.method, ex.request.path);
      const operationId = match?.op.operationId ?? null;
      const out: Violation[] = [];
      const add = (v: { rule: string; message: string; expected?: string; actual?: string }) =>
        out.push({ ...v, operationId, exchangeId: ex.id });
      const upstreamSilent = !ex.response && ex.error && !ex.error.startsWith("the client closed");
      if (!match) {
        if (upstreamSilent) add({ rule: "upstream-answers", message: ex.error as string });
        return out;
      }
      const { exchange, decodeError } = judgedExchange(ex, operationId, match.params);
      // the proxy's own answers (its --errors refusals, its 502s) come from the spec's serializer: the request is
      // still judged, the answer is not
      if (!ex.response || ex.servedBy === "proxy") {
        const requestOnly = { ...exchange, response: undefined };
        for (const v of registry.judge(requestOnly)) add(v);
        if (upstreamSilent) add({ rule: "upstream-answers", message: ex.error as string });
        return out;
      }
      for (const v of registry.judge(exchange)) add(v);
      const json = /[/+]json\b/.test(String(exchange.response?.headers["content-type"] ?? ""));
      if (decodeError && json && !out.some((v) => v.rule === "response-status-listed"))
        add({ rule: "response-schema", message: decodeError });
      return out;
    },
  };
}
