// The rules of `plumbline spec diff`: every change it reports carries one of these ids and, unless a severity file
// overrides it, this level. The levels are judged from the client's side: breaking (a client written against BASE
// fails against REVISION), potentially breaking (some clients may: an exhaustive switch, a budget, a generated SDK),
// non-breaking (every client of BASE keeps working). docs/spec-diff.md's table is checked against this list.

export type Level = "breaking" | "potentially-breaking" | "non-breaking";
export const LEVELS: readonly Level[] = ["breaking", "potentially-breaking", "non-breaking"];

export type RuleGroup = "operations" | "request" | "response" | "security" | "contract";

export interface RuleDefinition {
  id: string;
  level: Level;
  group: RuleGroup;
  /** what the rule detects, one line, for `--rules` and the docs */
  summary: string;
}

const rule = (id: string, level: Level, group: RuleGroup, summary: string): RuleDefinition => ({
  id,
  level,
  group,
  summary,
});
const B = "breaking" as const;
const P = "potentially-breaking" as const;
const N = "non-breaking" as const;

export const RULES = [
  // operations and paths
  rule("path-added", N, "operations", "a path with its operations was added"),
  rule("path-removed", B, "operations", "a path and every operation on it was removed"),
  rule("operation-added", N, "operations", "an operation (method) was added to an existing path"),
  rule("operation-removed", B, "operations", "an operation (method) was removed from a path that stays"),
  rule("operation-moved", B, "operations", "an operationId now answers on another method or path"),
  rule("operation-id-changed", P, "operations", "the operation on a method and path has a new operationId"),
  // request
  rule("request-parameter-added", N, "request", "an optional parameter was added"),
  rule("request-required-parameter-added", B, "request", "a required parameter was added"),
  rule("request-parameter-removed", P, "request", "a parameter was removed"),
  rule("request-parameter-became-required", B, "request", "an optional parameter became required"),
  rule("request-parameter-became-optional", N, "request", "a required parameter became optional"),
  rule("request-body-added", N, "request", "an optional request body was added"),
  rule("request-required-body-added", B, "request", "a required request body was added"),
  rule("request-body-removed", P, "request", "the request body was removed"),
  rule("request-body-became-required", B, "request", "the request body became required"),
  rule("request-body-became-optional", N, "request", "the request body became optional"),
  rule("request-media-type-added", N, "request", "a request content type was added"),
  rule("request-media-type-removed", B, "request", "a request content type is no longer accepted"),
  rule("request-body-form-added", N, "request", "the body accepts another top-level form (a single object, an array)"),
  rule("request-body-form-removed", B, "request", "a body that accepted an object or an array now accepts one only"),
  rule("request-alternative-added", N, "request", "a oneOf/anyOf alternative was added to a request schema"),
  rule("request-alternative-removed", B, "request", "a oneOf/anyOf alternative was removed from a request schema"),
  rule("request-property-added", N, "request", "an optional request field was added"),
  rule("request-required-property-added", B, "request", "a new required request field was added"),
  rule("request-property-removed", B, "request", "a request field was removed"),
  rule("request-property-became-required", B, "request", "an optional request field became required"),
  rule("request-property-became-optional", N, "request", "a required request field became optional"),
  rule("request-type-changed", B, "request", "a request field's type changed to another type"),
  rule("request-type-narrowed", B, "request", "a request field accepts fewer types"),
  rule("request-type-widened", N, "request", "a request field accepts more types"),
  rule("request-nullable-removed", B, "request", "a request field no longer accepts null"),
  rule("request-nullable-added", N, "request", "a request field now accepts null"),
  rule("request-enum-value-removed", B, "request", "a request enum value was removed (or an enum was imposed)"),
  rule("request-enum-value-added", N, "request", "a request enum value was added (or the enum was lifted)"),
  rule(
    "request-bound-tightened",
    B,
    "request",
    "minimum, maximum, minLength, maxLength, minItems, maxItems, … tightened",
  ),
  rule(
    "request-bound-loosened",
    N,
    "request",
    "minimum, maximum, minLength, maxLength, minItems, maxItems, … loosened",
  ),
  rule("request-pattern-changed", P, "request", "a request field's pattern was replaced by another"),
  rule("request-format-changed", P, "request", "a request field's format was added or changed"),
  rule("request-additional-properties-closed", B, "request", "a request object no longer accepts unnamed fields"),
  rule("request-additional-properties-opened", N, "request", "a request object now accepts unnamed fields"),
  rule("request-default-changed", P, "request", "the default of a request field changed"),
  rule("request-schema-changed", P, "request", "another keyword of a request schema changed"),
  // response
  rule("response-success-status-added", P, "response", "a success status was added"),
  rule("response-success-status-removed", B, "response", "a success status was removed"),
  rule("response-error-status-added", P, "response", "an error status was added"),
  rule("response-error-status-removed", N, "response", "an error status was removed"),
  rule("response-media-type-added", P, "response", "a response content type was added"),
  rule("response-media-type-removed", B, "response", "a response content type was removed (or replaced)"),
  rule("response-header-added", N, "response", "a response header was added"),
  rule("response-required-header-removed", B, "response", "a required response header was removed"),
  rule("response-optional-header-removed", P, "response", "an optional response header was removed"),
  rule("response-header-became-optional", B, "response", "a required response header became optional"),
  rule("response-alternative-added", P, "response", "a oneOf/anyOf alternative was added to a response schema"),
  rule("response-alternative-removed", N, "response", "a oneOf/anyOf alternative was removed from a response schema"),
  rule("response-property-added", N, "response", "a response field was added"),
  rule("response-required-property-removed", B, "response", "a required response field was removed"),
  rule("response-optional-property-removed", P, "response", "an optional response field was removed"),
  rule("response-property-became-optional", B, "response", "a required response field became optional"),
  rule("response-property-became-required", N, "response", "an optional response field became required"),
  rule("response-type-changed", B, "response", "a response field's type changed or admits a new type"),
  rule("response-type-narrowed", N, "response", "a response field has fewer types"),
  rule("response-nullable-added", B, "response", "a response field may now be null"),
  rule("response-nullable-removed", N, "response", "a response field is never null now"),
  rule("response-enum-value-added", P, "response", "a response enum value was added (a client's exhaustive switch)"),
  rule("response-enum-value-removed", N, "response", "a response enum value was removed"),
  rule("response-bound-loosened", P, "response", "a response field's bounds were loosened (bigger, longer, more)"),
  rule("response-bound-tightened", N, "response", "a response field's bounds were tightened"),
  rule("response-pattern-changed", P, "response", "a response field's pattern changed"),
  rule("response-format-changed", P, "response", "a response field's format changed"),
  rule("response-additional-properties-opened", N, "response", "a response object may carry unnamed fields"),
  rule("response-schema-changed", P, "response", "another keyword of a response schema changed"),
  // security
  rule("security-required", B, "security", "an operation that accepted anonymous calls now needs credentials"),
  rule("security-optional", N, "security", "an operation now accepts anonymous calls"),
  rule("security-scheme-added", N, "security", "an operation accepts another way to authenticate"),
  rule("security-scheme-removed", B, "security", "a way to authenticate an operation accepted is refused now"),
  rule("security-scheme-changed", B, "security", "the definition of a security scheme an operation uses changed"),
  // the contract's own extensions
  rule("price-raised", B, "contract", "an operation's credits, price or surcharge went up"),
  rule("price-lowered", N, "contract", "an operation's credits, price or surcharge went down"),
  rule("operation-now-paid", B, "contract", "a free operation is now priced"),
  rule("operation-now-free", N, "contract", "a priced operation is now free"),
  rule("payment-protocol-changed", B, "contract", "an operation is paid with another protocol or currency"),
  rule("rate-limit-tightened", B, "contract", "a rate-limit policy allows fewer requests per unit of time"),
  rule("rate-limit-loosened", N, "contract", "a rate-limit policy allows more requests per unit of time"),
  rule("rate-limit-retry-after-changed", P, "contract", "the Retry-After a throttled client is told changed"),
  rule("error-code-removed", B, "contract", "an error code of the catalogue an operation answered is gone"),
  rule("error-code-status-changed", B, "contract", "an error code is answered with another status"),
  rule("error-code-added", N, "contract", "an operation documents a new error code"),
] as const satisfies readonly RuleDefinition[];

export type RuleId = (typeof RULES)[number]["id"];

export const RULE_BY_ID: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((r) => [r.id, r]));

export function isRuleId(id: string): id is RuleId {
  return RULE_BY_ID.has(id);
}

/** Ordering key of levels: breaking first. */
export const LEVEL_RANK: Record<Level, number> = { breaking: 0, "potentially-breaking": 1, "non-breaking": 2 };
