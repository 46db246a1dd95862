// @plumbline-kit/contract: the contract of the Web Search, Crawl and Extraction Service, the single source of truth
// every part of plumbline imports (issue 2 §4): its OpenAPI document, types, validators, prices, error catalogue.

// the one registry of contract checks every judge calls (issue 35): judgeExchange, createJudge, RULES, their types
export * from "./checks/index.ts";
export { resolveChromium } from "./chromium.ts";
export { type Contract, type LoadOptions, loadContract, type RateLimitPolicy, readRateLimits } from "./contract.ts";
export { type Decision, decisionReferences, readDecisions, renderDecisionsPage } from "./decisions.ts";
export {
  CONTRACT_VERSIONS,
  type ContractVersion,
  contractPath,
  LIVE_SPEC_PATH,
  type OpenApiDocument,
  readRawDocument,
  SPEC_PATH,
} from "./document.ts";
export {
  type ApiErrorBody,
  clientErrorCode,
  type FieldError,
  fieldPath,
  PAYMENT_PROBLEM_TYPE,
  type SerializedError,
  serializeError,
  violationSummary,
} from "./error-body.ts";
export { type CatalogueEntry, ERROR_CATALOGUE, type ErrorCode, isErrorCode, STATUS_LABELS } from "./error-catalogue.ts";
export type { JsonSchema } from "./json-schema.ts";
export type { Schemas as LiveSchemas } from "./live/types.gen.ts";
export { type McpSettings, type McpTool, mcpSettings, toolInputSchema } from "./mcp-tools.ts";
export type { AuthMode, OperationSpec, ParameterSpec, Pricing, ResponseSpec } from "./operations.ts";
export { createPriceTable, type PriceTable } from "./price-table.ts";
export { applyProfile, type ProfileName, profileNames } from "./profiles.ts";
export type { components, operations, paths, Schemas } from "./types.gen.ts";
export { type BodyCheck, type ContractValidators, normalizeContentType, type ParameterCheck } from "./validators.ts";
