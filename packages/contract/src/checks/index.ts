// The registry of contract checks: what every judge (conformance, proxy, fuzz, replay) imports.
export { type SummaryCheck, summaryArithmetic } from "./batch-rules.ts";
export { createContext, isJsonType, joinedHeaders } from "./context.ts";
export { unfinishedStates } from "./deepcrawl-rules.ts";
export {
  createOperationMatcher,
  DEEPCRAWL_ZIP_PATH,
  type MatchedOperation,
  type OperationMatcher,
  queryOf,
} from "./operation-match.ts";
export { PAYMENT_PROBLEM_BASE, paymentProblems } from "./payment-rules.ts";
export {
  createJudge,
  createSequenceJudges,
  type Judge,
  judgeExchange,
  RULE_BY_ID,
  RULES,
  rule,
  selectRules,
} from "./registry.ts";
export { checkRequest, type RequestProblem, type RequestToJudge } from "./request-rules.ts";
export type * from "./types.ts";
