// Turns a failing property into what reproduces it (issue 6 "Reproduction"): the seed and fast-check path, the
// shrunk request or command sequence, curl commands, and a replay file in the corpus folder. Also the lines the
// command prints.
import { mkdirSync } from "node:fs";
import { plural } from "@plumbline-kit/contract/report/plural";
import type { FuzzCase } from "../fuzz-case.ts";
import type { CommandSpec } from "../model/model-command.ts";
import { executedSpecs, type ModelInput } from "../model/model-property.ts";
import type { PropertyOutcome } from "../properties/check-property.ts";
import type { FailureReport } from "../report/fuzz-report.ts";
import { type CorpusEntry, type PropertyName, writeCorpusEntry } from "./corpus-entry.ts";
import { fuzzCurl as curlCommand } from "./fuzz-curl.ts";

export interface FailureContext {
  baseUrl: string;
  /** where replay files go; null writes none */
  corpusDir: string | null;
  paths: (op: string) => string;
}

function stamp(): string {
  return new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

function sequenceCurls(ctx: FailureContext, commands: CommandSpec[]): string[] {
  return commands.flatMap((c) => {
    if (c.kind === "call")
      return [curlCommand(ctx.baseUrl, { method: "POST", path: ctx.paths(c.operationId), body: c.body })];
    if (c.kind === "usage") return [curlCommand(ctx.baseUrl, { method: "GET", path: "/usage" })];
    if (c.kind === "paid-call")
      return [
        `# paid with the test method: the anonymous call's challenge, then Authorization: Payment <credential>`,
        curlCommand(ctx.baseUrl, { method: "POST", path: ctx.paths(c.operationId), body: c.body }),
      ];
    if (c.kind === "poll-unknown")
      return [curlCommand(ctx.baseUrl, { method: "GET", path: `/deepcrawl/status/${encodeURIComponent(c.taskId)}` })];
    if (c.kind === "advance")
      return [curlCommand(ctx.baseUrl, { method: "POST", path: "/__mock/clock/advance", body: { ms: c.ms } })];
    return [`# poll task #${c.task} (the id the target gave it)`];
  });
}

export function failureRecord(
  property: PropertyName,
  outcome: PropertyOutcome<FuzzCase> | PropertyOutcome<ModelInput>,
  ctx: FailureContext,
): FailureReport {
  const value = outcome.counterexample;
  const fuzzCase = property === "stateful-model" ? null : ((value as FuzzCase | null) ?? null);
  const input = property === "stateful-model" ? (value as ModelInput | null) : null;
  const sequence = input ? { credits: input.credits, commands: executedSpecs(input) } : null;
  const curl = fuzzCase
    ? [curlCommand(ctx.baseUrl, fuzzCase.request)]
    : sequence
      ? sequenceCurls(ctx, sequence.commands)
      : [];
  const record: FailureReport = {
    seed: outcome.seed,
    path: outcome.path,
    shrinks: outcome.shrinks,
    failures: outcome.failures,
    error: outcome.error,
    case: fuzzCase,
    sequence,
    curl,
    corpusFile: null,
  };
  if (ctx.corpusDir && (fuzzCase || sequence)) {
    const first = outcome.failures[0]?.check ?? "error";
    const op = fuzzCase?.operationId ?? "model";
    const entry: CorpusEntry = {
      id: `${property}-${op}-${first}-${stamp()}`,
      property,
      description: outcome.failures.map((f) => `[${f.check}] ${f.message}`).join("; ") || (outcome.error ?? ""),
      ...(fuzzCase ? { case: fuzzCase } : {}),
      ...(sequence ? { sequence } : {}),
      found: {
        target: ctx.baseUrl,
        seed: outcome.seed,
        path: outcome.path,
        at: new Date().toISOString(),
        failures: outcome.failures,
      },
    };
    mkdirSync(ctx.corpusDir, { recursive: true });
    record.corpusFile = writeCorpusEntry(ctx.corpusDir, entry);
  }
  return record;
}

/** What the command prints about a failure. */
export function describeFailure(property: PropertyName, f: FailureReport): string[] {
  const lines = [`✗ ${property} failed (seed ${f.seed}, path "${f.path ?? ""}", ${f.shrinks} shrinks)`];
  for (const x of f.failures) lines.push(`  [${x.check}] ${x.message}`);
  if (f.error) lines.push(`  error: ${f.error.split("\n")[0]}`);
  if (f.case) {
    lines.push(`  ${f.case.violation ? `violation: ${f.case.violation.label}` : "valid input"}`);
    const r = f.case.request;
    lines.push(
      `  request: ${r.method} ${r.path} ${r.rawBody ?? (r.body === undefined ? "" : JSON.stringify(r.body))}`.slice(
        0,
        2000,
      ),
    );
  }
  if (f.sequence) {
    // the generated balance applies to a fresh account, made only on a target with /__mock
    const start = `${plural(f.sequence.credits, "credit")} on a mock, else the key's balance`;
    lines.push(`  commands (${start}): ${JSON.stringify(f.sequence.commands)}`.slice(0, 2000));
  }
  for (const c of f.curl) lines.push(`  ${c}`.slice(0, 2000));
  if (f.corpusFile) lines.push(`  replay file: ${f.corpusFile} (plumbline fuzz --replay ${f.corpusFile} …)`);
  return lines;
}
