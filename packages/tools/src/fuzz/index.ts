// Property-based fuzzing (issue 6): the typed API of `plumbline fuzz`, and its parts for other tools.
export { type OperationCases, operationCases } from "./arbitraries/operation-cases.ts";
export { compileSchema } from "./arbitraries/schema-arbitrary.ts";
export type { Violation, ViolationKind } from "./arbitraries/violation-slots.ts";
export { CHECKS, type CheckFailure, type CheckId } from "./checks/check-failure.ts";
export type { Waiver } from "./checks/waivers.ts";
export type { FuzzCase } from "./fuzz-case.ts";
export { type FixtureSite, readFixtureSite } from "./http/fixture-site.ts";
export type { FuzzRequest } from "./http/http-client.ts";
export type { FuzzReport, PropertyReport } from "./report/fuzz-report.ts";
export { ALL_PROPERTIES, type CorpusEntry, readCorpus } from "./repro/corpus-entry.ts";
export { type FuzzOptions, type FuzzResult, runFuzz } from "./run-fuzz.ts";
