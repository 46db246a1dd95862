// `plumbline/spec` for plain Node: the spec module's TypeScript loaded through tsx's scoped tsImport (see
// ../index.js); its types come from index.ts. Checked against index.ts by test-support/package-entry.test.ts.
import { tsImport } from "tsx/esm/api";

const api = await tsImport("./index.ts", import.meta.url);

export const {
  ERROR_CATALOGUE,
  PAYMENT_PROBLEM_TYPE,
  SPEC_PATH,
  STATUS_LABELS,
  applyProfile,
  createPriceTable,
  decisionReferences,
  fieldPath,
  isErrorCode,
  loadContract,
  mcpSettings,
  normalizeContentType,
  profileNames,
  readDecisions,
  readRawDocument,
  renderDecisionsPage,
  serializeError,
  toolInputSchema,
  violationSummary,
} = api;
