// Which contract operation a request belongs to: the registry's matcher (spec/checks/operation-match.ts).
export {
  createOperationMatcher,
  type MatchedOperation,
  type OperationMatcher,
  queryOf,
} from "@plumbline-kit/contract/checks/operation-match";
