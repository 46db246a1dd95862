// `plumbline/spec` for plain Node: the spec module's TypeScript loaded through tsx's scoped tsImport (see
// ../index.js); its types come from index.ts. Checked against index.ts by test-support/package-entry.test.ts.
import { tsImport } from "tsx/esm/api";

const api = await tsImport("./index.ts", import.meta.url);

export const {
  ERROR_CATALOGUE,
  DIFF_FORMATS,
  DIFF_LEVELS,
  DIFF_RULES,
  PAYMENT_PROBLEM_TYPE,
  SPEC_PATH,
  STATUS_LABELS,
  applyProfile,
  clientErrorCode,
  createPriceTable,
  decisionReferences,
  diffExitCode,
  diffSpecs,
  fieldPath,
  isErrorCode,
  loadContract,
  mcpSettings,
  normalizeContentType,
  parseSeverity,
  profileNames,
  readDecisions,
  readRateLimits,
  readRawDocument,
  readSeverityFile,
  readSpecSource,
  renderDecisionsPage,
  renderDiff,
  renderRules,
  serializeError,
  SpecSourceError,
  specSourceFromText,
  toolInputSchema,
  violationSummary,
} = api;
