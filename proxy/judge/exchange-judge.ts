// Judging each finished exchange: the request against its operation, the answer against the document for that
// operation and status (the spec module's compiled validators, as the conformance suite uses them), and the
// invariants one exchange shows (batch arithmetic, echoes) or a short sequence does (deepcrawl task states).
import type { Contract, FieldError } from "../../spec/index.ts";
import { normalizeContentType, PAYMENT_PROBLEM_TYPE } from "../../spec/index.ts";
import { plural } from "../../spec/report/plural.ts";
import type { Exchange } from "../exchange.ts";
import { decodeBody } from "../har/body-decoding.ts";
import { headerRecord, headerValue } from "../hop-headers.ts";
import type { OperationMatcher } from "../operation-match.ts";
import { checkRequest, requestJson } from "./request-check.ts";
import type { RuleId } from "./rules.ts";
import { createTaskStates } from "./task-states.ts";

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
const isJsonType = (ct: string) => /[/+]json\b/.test(ct);

/** Header problems of the three the contract names get a rule of their own; the rest are response-headers. */
function headerRule(status: number, e: FieldError): RuleId {
  const name = e.field.replace(/^\/headers\//, "");
  if (status === 401 && name === "www-authenticate") return "auth-challenge";
  if (status === 402 && name === "www-authenticate") return "payment-problem";
  if (status === 429 && name === "retry-after") return "rate-limit-retry-after";
  return "response-headers";
}

export function createExchangeJudge(contract: Contract, matcher: OperationMatcher): ExchangeJudge {
  const tasks = createTaskStates(contract);

  return {
    judge(ex) {
      const out: Violation[] = [];
      const match = matcher(ex.request.method, ex.request.path);
      const operationId = match?.op.operationId ?? null;
      const add = (rule: RuleId, message: string, expected?: string, actual?: string) =>
        out.push({ rule, operationId, exchangeId: ex.id, message, expected, actual });

      // a request that never arrived whole (too large, cut off, too slow) has no body to judge
      if (match && !ex.request.unread) {
        const problem = checkRequest(contract, match, ex);
        if (problem)
          add(problem.rule, problem.message, undefined, `${problem.refusal.status} ${problem.refusal.body.code}`);
      }
      if (!ex.response) {
        if (ex.error && !ex.error.startsWith("the client closed")) add("upstream-answers", ex.error);
        return out;
      }
      // the proxy's own answers (its --errors refusals, its 502s) come from the spec's serializer
      if (!match || ex.servedBy === "proxy") return out;
      const r = ex.response;
      const opId = match.op.operationId;
      const contentType = headerValue(r.headers, "content-type") ?? "";
      const headers = headerRecord(r.headers);

      if (!match.op.statuses.includes(r.status)) {
        add(
          "response-status-listed",
          `status ${r.status} is not listed for ${opId}`,
          match.op.statuses.join(", "),
          String(r.status),
        );
        return out;
      }
      let json: unknown;
      let jsonOk = false;
      if (isJsonType(contentType) && !r.truncated) {
        const decoded = decodeBody(r.body, headers["content-encoding"], MAX_DECODED);
        if (decoded.ok) {
          try {
            json = JSON.parse(decoded.bytes.toString("utf8"));
            jsonOk = true;
          } catch {
            add("response-schema", "the body is not valid JSON", contentType, `${decoded.bytes.length} bytes`);
          }
        } else add("response-schema", decoded.reason);
      }
      if (!r.truncated && (jsonOk || !isJsonType(contentType))) {
        for (const e of contract.validators.checkResponse(opId, r.status, contentType, json) ?? []) {
          if (e.code === "contentType")
            add("response-content-type", e.message, undefined, normalizeContentType(contentType));
          else add("response-schema", e.message, undefined, e.code);
        }
      }
      for (const e of contract.validators.checkResponseHeaders(opId, r.status, headers) ?? [])
        add(headerRule(r.status, e), e.message, undefined, e.field.replace(/^\/headers\//, ""));

      if (r.status === 402) paymentProblem(json, headers, add);
      // an id is echoed when it is sane, printable ASCII of at most 128 characters; another gets a new one (D-headers)
      const sentId = headerValue(ex.request.headers, "x-request-id");
      if (sentId && /^[\x21-\x7e]{1,128}$/.test(sentId) && headers["x-request-id"] !== sentId)
        add("request-id-echo", "x-request-id does not echo the request's", sentId, headers["x-request-id"] ?? "(none)");

      if (!jsonOk || r.status >= 300) return out;
      const sent = requestJson(ex);
      if ((opId === "search" || opId === "news") && Array.isArray(sent)) batch(contract, opId, sent, json, add);
      else echo(opId, sent, json, add);
      if (opId === "deepcrawl" && r.status === 202) tasks.accepted(json, ex.id);
      if (opId === "deepcrawlStatus")
        for (const v of tasks.polled(match.params.taskId, json, ex.id)) add(v.rule, v.message, v.expected, v.actual);
      return out;
    },
  };
}

type Add = (rule: RuleId, message: string, expected?: string, actual?: string) => void;
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function paymentProblem(json: unknown, headers: Record<string, string>, add: Add) {
  const body = obj(json);
  if (!body) return;
  const problems = [
    !String(body.type ?? "").startsWith(PAYMENT_PROBLEM_TYPE.replace(/[^/]*$/, "")) &&
      "problem type is not a paymentauth.org problem type",
    body.status !== 402 && "problem status is not 402",
    typeof body.title !== "string" && "problem has no title",
    typeof body.detail !== "string" && "problem has no detail",
    !/\bPayment\s/.test(headers["www-authenticate"] ?? "") && "no Payment challenge in WWW-Authenticate",
  ].filter((p): p is string => typeof p === "string");
  for (const p of problems) add("payment-problem", p);
}

function batch(contract: Contract, opId: string, sent: unknown[], json: unknown, add: Add) {
  const body = obj(json);
  const entries = Array.isArray(body?.results) ? (body.results as unknown[]).map((e) => obj(e) ?? {}) : [];
  if (entries.length !== sent.length)
    add(
      "batch-entries",
      `a batch of ${sent.length} answered ${plural(entries.length, "entry", "entries")}`,
      String(sent.length),
      String(entries.length),
    );
  entries.forEach((e, i) => {
    const item = obj(sent[i]);
    const data = obj(e.data);
    if (e.success === true && item && data) {
      const query = obj(data.searchParameters)?.query;
      if (query !== item.query)
        add("batch-entries", `entry ${i} answers another item`, JSON.stringify(item.query), JSON.stringify(query));
      echoSearch(item, data, add, `entry ${i}: `);
    }
    const price = e.success === true ? contract.prices.entryCredits(opId, sent[i]) : 0;
    if (e.cost !== price)
      add(
        "batch-entry-cost",
        `entry ${i} (${e.success === true ? "succeeded" : "failed"}) costs ${JSON.stringify(e.cost)}`,
        String(price),
        JSON.stringify(e.cost),
      );
  });
  const summary = obj(body?.summary) ?? {};
  const expected: Obj = {
    total: sent.length,
    successful: entries.filter((e) => e.success === true).length,
    failed: entries.filter((e) => e.success !== true).length,
    totalCost: entries.reduce<number>((s, e) => s + (typeof e.cost === "number" ? e.cost : Number.NaN), 0),
  };
  for (const [k, v] of Object.entries(expected))
    if (summary[k] !== v) add("batch-summary", `summary.${k} does not add up`, String(v), JSON.stringify(summary[k]));
}

function echoSearch(sent: Obj, answer: Obj, add: Add, prefix = "") {
  const echoed = obj(answer.searchParameters);
  for (const [k, v] of Object.entries(sent))
    if (!same(echoed?.[k], v))
      add(
        "parameters-echo",
        `${prefix}searchParameters.${k} is not echoed`,
        JSON.stringify(v),
        JSON.stringify(echoed?.[k]),
      );
}

function echo(opId: string, sentValue: unknown, json: unknown, add: Add) {
  const sent = obj(sentValue);
  const body = obj(json);
  if (!sent || !body) return;
  if (opId === "search" || opId === "news") echoSearch(sent, body, add);
  if (opId === "trending") {
    const echoed = obj(body.trendingParameters);
    for (const [k, v] of Object.entries(sent))
      if (!same(echoed?.[k], v))
        add("parameters-echo", `trendingParameters.${k} is not echoed`, JSON.stringify(v), JSON.stringify(echoed?.[k]));
  }
  if (opId === "crawl" || opId === "extract") {
    const url = obj(body[`${opId}Parameters`])?.url;
    if (url !== sent.url)
      add("parameters-echo", `${opId}Parameters.url is not the URL asked`, String(sent.url), String(url));
  }
}
