// `spec diff`: two versions of the contract compared by meaning (docs/spec-diff.md).
export type { ChangeSide, SpecChange } from "./changes.ts";
export { type DiffOptions, type DiffResult, diffExitCode, diffSpecs, type FailOn } from "./diff-specs.ts";
export { type DiffFormat, FORMATS as DIFF_FORMATS, renderDiff, renderRules } from "./report-formats.ts";
export {
  LEVELS as DIFF_LEVELS,
  type Level as DiffLevel,
  RULES as DIFF_RULES,
  type RuleDefinition as DiffRule,
  type RuleId as DiffRuleId,
} from "./rules.ts";
export { parseSeverity, readSeverityFile, type SeverityOverrides } from "./severity.ts";
export { readSpecSource, type SpecSource, SpecSourceError, specSourceFromText } from "./spec-source.ts";
export type { UndescribedGroup, UndescribedKind, UndescribedMode } from "./undescribed.ts";
