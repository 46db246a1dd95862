// `plumbline spec …`: validate and summarise the document, lint it, regenerate the derived files. Declarations
// only; each action loads what it needs (the document's loader and validators take ~300 ms to load).
import { Command, exits, Option, usageError } from "@plumbline-kit/cli/command-kit";
import { CONTRACT_VERSIONS } from "@plumbline-kit/contract/contract-versions";
import { PROFILE_NAMES } from "@plumbline-kit/contract/profiles";
import { plural } from "@plumbline-kit/contract/report/plural";
import { FORMATS } from "./diff/report-formats.ts";

export const DECISIONS_PATH = new URL("../../../contract/src/DECISIONS.md", import.meta.url);
/** The decisions page of the `live` version of the contract (D-live-version), beside its document. */
export const LIVE_DECISIONS_PATH = new URL("../../../contract/src/live/DECISIONS.md", import.meta.url);

const writeOption = (file: string) => new Option("--write", `write ${file}`).conflicts("check");
const checkOption = (file: string) =>
  new Option("--check", `exit 1 when the committed ${file} differs from what the document gives`);
/** `--contract seed|live`: which version of the contract (D-live-version); the seed is the default. */
export const contractOption = () =>
  new Option(
    "--contract <version>",
    "the version of the contract: seed (the interface) or live (the service's newer document)",
  )
    .choices(CONTRACT_VERSIONS)
    .default("seed" as const);

function summaryCommand() {
  return new Command("summary")
    .description("Validate spec/openapi.yaml and print its operations, prices and decisions (the default).")
    .addOption(new Option("--profile <name>", "the bound set to apply").choices(PROFILE_NAMES).default("primary"))
    .addOption(contractOption())
    .option("--json", "print the summary as JSON")
    .action(
      exits(async (opts) => {
        const { loadContract } = await import("@plumbline-kit/contract/contract");
        const c = await loadContract({ profile: opts.profile, version: opts.contract });
        if (!opts.json) {
          console.log((await import("@plumbline-kit/contract/summary")).renderSummary(c));
          return 0;
        }
        const operations = c.operations.map((o) => ({
          operationId: o.operationId,
          method: o.method.toUpperCase(),
          path: o.path,
          auth: o.auth,
          pricing: o.pricing,
          batchMax: o.batchMax,
          statuses: o.statuses,
          discovery: o.discovery,
        }));
        const summary = { title: c.document.info.title, version: c.version, profile: c.profile, operations };
        console.log(JSON.stringify({ ...summary, decisions: c.decisions.map((d) => d.id) }, null, 2));
        return 0;
      }),
    );
}

function diffCommand() {
  return new Command("diff")
    .summary("breaking changes between two versions of an OpenAPI document")
    .description(
      "Breaking changes between two versions of an OpenAPI 3.1 or 3.0 document (YAML or JSON), compared by meaning: $refs are followed, so a schema moved under components, reordered keys or reformatted YAML is no change. Levels are judged from the client's side (docs/spec-diff.md).",
    )
    .argument(
      "[base]",
      "the older document: a file, or git:REF:path for the document as committed at REF (path from the repository's root), e.g. git:origin/main:spec/openapi.yaml",
    )
    .argument("[revision]", "the newer document, in the same forms")
    .addOption(
      new Option(
        "--format <format>",
        "text; json (the typed result); junit (one test case per change); markdown (a table for a pull-request comment); github (workflow annotations on REVISION's lines)",
      )
        .choices(FORMATS)
        .default("text" as const),
    )
    .addOption(
      new Option(
        "--fail-on <level>",
        "exit 1 when a change is breaking (breaking), or breaking or potentially breaking (warning)",
      ).choices(["breaking", "warning"] as const),
    )
    .option("--severity <file>", "YAML or JSON mapping rule ids to breaking, potentially-breaking, non-breaking or off")
    .addOption(
      new Option(
        "--undescribed <as>",
        "what BASE describes and REVISION says nothing about at all (response headers, error codes, discovery operations, rate limits, prices): apart, listed in their own group and counted in no level; removed, counted as removals at their rules' levels",
      )
        .choices(["apart", "removed"] as const)
        .default("apart" as const),
    )
    .option("--rules", "list the rules, their default levels and what each detects (no documents needed)")
    .addHelpText(
      "after",
      "\nExit codes: 0 compared (and nothing reached --fail-on), 1 a change reached --fail-on, 2 bad arguments or a\ndocument that does not read.",
    )
    .action(
      exits(async (base, revision, opts, cmd) => {
        const { diffCommand: diff, listRules } = await import("./diff/cli.ts");
        if (opts.rules) return listRules(opts.format);
        if (base === undefined || revision === undefined) usageError(cmd, "BASE and REVISION are required");
        return diff(base, revision, opts);
      }),
    );
}

export function specCommand() {
  const spec = new Command("spec")
    .description(
      "The OpenAPI document, spec/openapi.yaml: validate and summarise it, lint it, regenerate its derived files.",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 a check failed (lint errors, a stale file), 2 bad usage or the document does not load.",
    );
  spec.addCommand(summaryCommand(), { isDefault: true });
  spec
    .command("lint")
    .description("Lint the document with Redocly's recommended rules (exit 1 on an error).")
    .action(
      exits(async () => {
        const problems = await (await import("./lint.ts")).lintDocument();
        for (const p of problems) console.log(`${p.severity} ${p.rule}: ${p.message} (${p.at})`);
        const errors = problems.filter((p) => p.severity === "error").length;
        console.log(`${plural(errors, "error")}, ${plural(problems.length - errors, "warning")}`);
        return errors > 0 ? 1 : 0;
      }),
    );
  spec
    .command("types")
    .description("Print the TypeScript types generated from the document (spec/types.gen.ts).")
    .addOption(writeOption("spec/types.gen.ts"))
    .addOption(checkOption("spec/types.gen.ts"))
    .addOption(contractOption())
    .action(
      exits(async (opts) => {
        const { derivedFile, derivedMode } = await import("./derived-file.ts");
        const { contractTypes, generateTypes, LIVE_TYPES_PATH, TYPES_PATH } = await import("./types-gen.ts");
        const { contractPath } = await import("@plumbline-kit/contract/document");
        const mode = derivedMode(opts);
        const seed = opts.contract === "seed";
        // printed: the shipped types when openapi-typescript (a repository tool) is not installed
        return derivedFile(
          seed ? TYPES_PATH : LIVE_TYPES_PATH,
          mode === "print"
            ? () => contractTypes(opts.contract)
            : () => (seed ? generateTypes() : generateTypes(contractPath(opts.contract), opts.contract)),
          mode,
          seed ? "plumbline spec types --write" : `plumbline spec types --contract ${opts.contract} --write`,
        );
      }),
    );
  spec
    .command("decisions")
    .description("Print the decisions page rendered from the document's decisions (spec/DECISIONS.md).")
    .addOption(writeOption("spec/DECISIONS.md"))
    .addOption(checkOption("spec/DECISIONS.md"))
    .addOption(contractOption())
    .action(
      exits(async (opts) => {
        const { derivedFile, derivedMode } = await import("./derived-file.ts");
        const { renderDecisionsPage } = await import("@plumbline-kit/contract/decisions");
        const { contractPath, readRawDocument } = await import("@plumbline-kit/contract/document");
        const seed = opts.contract === "seed";
        const render = () => renderDecisionsPage(readRawDocument(contractPath(opts.contract)));
        const rewrite = seed
          ? "plumbline spec decisions --write"
          : `plumbline spec decisions --contract ${opts.contract} --write`;
        return derivedFile(seed ? DECISIONS_PATH : LIVE_DECISIONS_PATH, render, derivedMode(opts), rewrite);
      }),
    );
  spec.addCommand(diffCommand());
  return spec;
}
