// The registry of contract checks (issue 35): the contract's rules as pure functions of one exchange (a request, its
// answer, the operation, the contract) or of a short sequence of them (a task's polls, a balance read before and
// after a paid call). Every judge calls them: the conformance suite on the answers it planned, the proxy on the
// traffic it forwards, the fuzzer on its generated cases, the mock's replay on recorded answers at load. A rule is
// fixed here once, and every judge agrees.
import type { Contract } from "../contract.ts";
import type { OperationSpec } from "../operations.ts";

export type Severity = "critical" | "major" | "minor";

/** Header values by lower-case name; a repeated header keeps every value, in order. */
export type HeaderValues = Record<string, string | string[]>;

export interface ExchangeRequest {
  /** upper case, e.g. `POST` */
  method: string;
  /** path and query as sent, without the origin, e.g. `/search?x=1` */
  path: string;
  headers: HeaderValues;
  /**
   * the body's bytes (or text), whole, when the judge has them; absent when there was no body or it never arrived
   * whole (rules that need the request body then do not run)
   */
  body?: Uint8Array | string;
  /**
   * the JSON value sent, when the judge knows it without parsing (the conformance suite and the fuzzer built it);
   * otherwise it is parsed from `body`
   */
  json?: unknown;
  /** an opaque name of the credential the request carried (the same for the same key), for the balance sequences */
  credential?: string;
  /** the judge does not know what was sent (only the answer): no rule that reads the request runs */
  unknown?: boolean;
}

export interface ExchangeResponse {
  status: number;
  headers: HeaderValues;
  /**
   * the body's bytes, decoded (no Content-Encoding left), when the judge has them; absent when it kept no body
   * (rules that need the response body then do not run)
   */
  body?: Uint8Array | string;
  /** the JSON answer, when the judge parsed it already; otherwise parsed from `body` when the content type is JSON */
  json?: unknown;
  /** set when `body` holds the first bytes only: the body rules do not run on it */
  truncated?: boolean;
}

/** One request and its answer, as every judge can describe it. */
export interface Exchange {
  request: ExchangeRequest;
  /** absent when no answer came (refused, reset, timed out): only the request rules run */
  response?: ExchangeResponse;
  /** the contract operation, when the caller resolved it (else matched from the method and path) */
  operationId?: string | null;
  /** path parameters by name, when the caller resolved them (else matched with the operation) */
  pathParams?: Record<string, string>;
  /** epoch ms the answer arrived, when known (a challenge's expiry is judged against it) */
  at?: number;
  /** the host name the service was addressed by, when the judge knows it (a Payment challenge's realm names it) */
  host?: string;
}

/** A rule's finding: a value, never an exception. */
export interface Violation {
  rule: string;
  message: string;
  expected?: string;
  actual?: string;
  /** the JSON Pointer of the field at fault, when the rule names one (`/results`, `/headers/retry-after`) */
  field?: string;
  /** what failed, finer than the rule: the schema keyword (`type`, `required`), `status`, `contentType`, `json` */
  code?: string;
}

/**
 * What a rule needs to run; a judge that lacks it leaves the rule out (and says so when asked, see `rulesFor`).
 * - request-body: the JSON the client sent
 * - response-body: the whole answer body (JSON parsed, or the bytes of a binary answer)
 * - balance-before: the same credential's balance read before the call (GET /usage)
 * - earlier-polls: earlier status answers of the same deepcrawl task
 */
export type Need = "request-body" | "response-body" | "balance-before" | "earlier-polls";

export interface RuleInfo {
  /** stable: reports, CI (`plumbline proxy --fail-on`), docs and conformance checks name it */
  id: string;
  title: string;
  severity: Severity;
  /** the interface section or decision (D-…) the rule enforces */
  basis: string;
  /** whose fault a violation is: the client's request or the answer */
  side: "request" | "response";
  /**
   * it judges what any client's traffic shows (the proxy applies it); false for rules that need a request crafted
   * to provoke the answer (an invalid request the target must refuse), which only an active judge can plan
   */
  passive: boolean;
  needs: Need[];
}

/** What an exchange rule is given: the exchange, resolved and parsed once for every rule. */
export interface ExchangeContext {
  contract: Contract;
  exchange: Exchange;
  /** the matched operation; exchange rules run only on exchanges that match one (or the zip route) */
  op: OperationSpec | null;
  /** `deepcrawl-zip` for the download of a deepcrawl's zip (D-deepcrawl-zip), else the operation id or null */
  route: string | null;
  params: Record<string, string>;
  /** the JSON sent; undefined when there was none, it did not parse, or the judge lacks it (`sentKnown` false) */
  sent: unknown;
  sentKnown: boolean;
  /** the answer; null when none came */
  status: number | null;
  /** the request's headers by lower-case name, repeats joined with ", " */
  requestHeaders: Record<string, string>;
  /** the answer's headers by lower-case name, repeats joined with ", " (what the header validators take) */
  headers: Record<string, string>;
  /** every value, for the rules that count repeats */
  headerValues: HeaderValues;
  /** the normalized content type (`application/json`, lower case, no parameters); "" when none */
  contentType: string;
  /** the whole decoded body, when the judge has it and it was not truncated */
  bytes: Uint8Array | null;
  /** the parsed JSON answer; `json.ok` false when the content type is JSON but the body is not */
  json: { ok: true; value: unknown } | { ok: false; reason: string } | null;
  /** a value computed once per exchange and shared by the rules that read it (e.g. the schema's errors) */
  memo<T>(key: string, compute: () => T): T;
}

export interface ExchangeRule extends RuleInfo {
  kind: "exchange";
  check(ctx: ExchangeContext): Violation[];
}

/** A judge of a sequence: fed every exchange in the order they completed, it returns what the sequence shows. */
export interface SequenceJudge {
  observe(ctx: ExchangeContext): Violation[];
}

export interface SequenceRule extends RuleInfo {
  kind: "sequence";
  /** a fresh tracker per judge (per proxy, per run): it remembers a bounded number of tasks or credentials */
  create(contract: Contract): SequenceJudge;
}

export type Rule = ExchangeRule | SequenceRule;

export interface JudgeOptions {
  /** rule ids (or rules) to apply; default every rule of the registry */
  rules?: ReadonlyArray<string | Rule>;
  /** only the rules that apply to passive traffic (the proxy) */
  passive?: boolean;
  /** only the rules of one side: `response` for judges that send invalid requests on purpose */
  side?: "request" | "response";
  /** sequence trackers to feed with this exchange too (from `createSequenceJudges`) */
  sequences?: SequenceJudge[];
}
