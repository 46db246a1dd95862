// The action of `plumbline spec diff BASE REVISION` and `plumbline spec diff --rules` (declared in spec/cli.ts).
import { diffExitCode, diffSpecs, type FailOn } from "./diff-specs.ts";
import { type DiffFormat, renderDiff, renderRules } from "./report-formats.ts";
import { readSeverityFile, SeverityFileError } from "./severity.ts";
import { SpecSourceError } from "./spec-source.ts";
import type { UndescribedMode } from "./undescribed.ts";

export interface DiffCommandOptions {
  format: DiffFormat;
  failOn?: FailOn;
  severity?: string;
  rules?: boolean;
  undescribed?: UndescribedMode;
}

/** Exit 0 compared (nothing reached --fail-on), 1 a change reached it, 2 a document or severity file that does not read. */
export async function diffCommand(base: string, revision: string, o: DiffCommandOptions): Promise<number> {
  try {
    const severity = o.severity ? readSeverityFile(o.severity) : undefined;
    const result = await diffSpecs(base, revision, { severity, undescribed: o.undescribed });
    console.log(renderDiff(result, o.format, o.failOn));
    return diffExitCode(result, o.failOn);
  } catch (err) {
    if (err instanceof SpecSourceError || err instanceof SeverityFileError) {
      console.error(`plumbline spec diff: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

/** The rules, their default levels and what each detects. */
export function listRules(format: DiffFormat): number {
  console.log(renderRules(format));
  return 0;
}
