// `plumbline spec diff BASE REVISION`: the options declared once here (one parseArgs object and its help text).
import { parseArgs } from "node:util";
import { diffExitCode, diffSpecs, type FailOn } from "./diff-specs.ts";
import { type DiffFormat, FORMATS, renderDiff, renderRules } from "./report-formats.ts";
import { readSeverityFile, SeverityFileError } from "./severity.ts";
import { SpecSourceError } from "./spec-source.ts";

export const DIFF_HELP = `Usage: plumbline spec diff BASE REVISION [--format text|json|junit|markdown|github]
                         [--fail-on breaking|warning] [--severity FILE]
       plumbline spec diff --rules [--format text|json|markdown]

  BASE, REVISION       OpenAPI 3.1 or 3.0 documents, YAML or JSON: a file, or git:REF:path for the document as
                       committed at REF (path from the repository's root), e.g. git:origin/main:spec/openapi.yaml
  --format             text (default); json (the typed result); junit (one test case per change); markdown (a
                       table for a pull-request comment); github (workflow annotations on REVISION's lines)
  --fail-on LEVEL      exit 1 when a change is breaking (breaking), or breaking or potentially breaking (warning)
  --severity FILE      YAML or JSON mapping rule ids to breaking, potentially-breaking, non-breaking or off
  --rules              list the rules, their default levels and what each detects

Changes are compared by meaning: $refs are followed, so a schema moved under components, reordered keys or
reformatted YAML is no change. Levels are judged from the client's side (docs/spec-diff.md).

Exit codes: 0 compared (and nothing reached --fail-on), 1 a change reached --fail-on, 2 bad arguments or a
document that does not read.`;

export async function diffCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string", default: "text" },
      "fail-on": { type: "string" },
      severity: { type: "string" },
      rules: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(DIFF_HELP);
    return 0;
  }
  const format = values.format as DiffFormat;
  if (!FORMATS.includes(format)) {
    console.error(`plumbline spec diff: --format takes ${FORMATS.join(", ")}, not "${values.format}"`);
    return 2;
  }
  if (values.rules) {
    console.log(renderRules(format));
    return 0;
  }
  const failOn = values["fail-on"] as FailOn | undefined;
  if (failOn !== undefined && failOn !== "breaking" && failOn !== "warning") {
    console.error(`plumbline spec diff: --fail-on takes breaking or warning, not "${failOn}"`);
    return 2;
  }
  if (positionals.length !== 2) {
    console.error(`plumbline spec diff: BASE and REVISION are required\n\n${DIFF_HELP}`);
    return 2;
  }
  try {
    const severity = values.severity ? readSeverityFile(values.severity) : undefined;
    const result = await diffSpecs(positionals[0], positionals[1], { severity });
    console.log(renderDiff(result, format, failOn));
    return diffExitCode(result, failOn);
  } catch (err) {
    if (err instanceof SpecSourceError || err instanceof SeverityFileError) {
      console.error(`plumbline spec diff: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
