// The package's entry for plain Node (no loader flag, no build step). The sources are TypeScript; tsx's
// scoped tsImport compiles them here without registering tsx for the importing application's own files.
// TypeScript consumers read the types from index.ts (the "types" condition in package.json). The names below
// are checked against index.ts by test-support/package-entry.test.ts, so an export cannot be forgotten here.
import { tsImport } from "tsx/esm/api";

const api = await tsImport("./index.ts", import.meta.url);

export const {
  CHECKS,
  DEMO_KEY,
  ERROR_CATALOGUE,
  PAYMENT_PROBLEM_TYPE,
  PUBLIC_SEARCH_APIS,
  SPEC_PATH,
  STATUS_LABELS,
  applyProfile,
  benchCrawlQuality,
  benchCrawlLoad,
  benchMockSearch,
  benchScreenshot,
  createPageIndex,
  createPayingFetch,
  createPriceTable,
  decisionReferences,
  deepcrawlIndexSink,
  exportFixtures,
  fieldPath,
  indexSites,
  indexingCrawl,
  isErrorCode,
  loadContract,
  mcpSettings,
  normalizeContentType,
  parseThreshold,
  profileNames,
  readDecisions,
  readFixtureManifest,
  readRawDocument,
  renderDecisionsPage,
  runCompare,
  runConformance,
  runFuzz,
  runGate,
  runLoad,
  serializeError,
  startMock,
  startAuthServer,
  startFixtureServer,
  startReference,
  toolInputSchema,
  violationSummary,
} = api;
