// `plumbline spec …`: validate and summarise the document, lint it, regenerate the derived files.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadContract } from "./contract.ts";
import { renderDecisionsPage } from "./decisions.ts";
import { readRawDocument } from "./document.ts";
import { lintDocument } from "./lint.ts";
import { renderSummary } from "./summary.ts";
import { generateTypes, TYPES_PATH } from "./types-gen.ts";

export const DECISIONS_PATH = new URL("./DECISIONS.md", import.meta.url);

export const SPEC_HELP = `Usage: plumbline spec [summary] [--profile primary|alt-bounds] [--json]
       plumbline spec lint
       plumbline spec types [--write|--check]
       plumbline spec decisions [--write|--check]
       plumbline spec diff BASE REVISION [--format text|json|junit|markdown|github] [--fail-on breaking|warning]
                           [--severity FILE] [--rules]

  summary     validate spec/openapi.yaml and print its operations, prices and decisions (default)
  lint        lint the document with Redocly's recommended rules
  types       print the TypeScript types generated from the document; --write updates spec/types.gen.ts,
              --check exits 1 when the committed file is stale
  decisions   print the decisions page; --write updates spec/DECISIONS.md, --check exits 1 when stale
  diff        breaking changes between two versions of an OpenAPI document (plumbline spec diff --help)

Exit codes: 0 ok, 1 a check failed, 2 bad arguments.`;

async function derived(
  name: string,
  path: URL,
  render: () => Promise<string> | string,
  mode: "print" | "write" | "check",
) {
  const text = await render();
  if (mode === "write") {
    writeFileSync(path, text);
    console.log(`wrote ${path.pathname}`);
    return 0;
  }
  if (mode === "check") {
    const committed = readFileSync(path, "utf8");
    if (committed !== text) {
      console.error(`${name} is stale: run \`plumbline spec ${name} --write\``);
      return 1;
    }
    console.log(`${name}: up to date`);
    return 0;
  }
  process.stdout.write(text);
  return 0;
}

export async function specCommand(argv: string[]): Promise<number> {
  // diff has options of its own (spec/diff/cli.ts), parsed there
  if (argv[0] === "diff") return (await import("./diff/cli.ts")).diffCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      profile: { type: "string", default: "primary" },
      json: { type: "boolean", default: false },
      write: { type: "boolean", default: false },
      check: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(SPEC_HELP);
    return 0;
  }
  const sub = positionals[0] ?? "summary";
  const mode = values.write ? "write" : values.check ? "check" : "print";
  switch (sub) {
    case "summary": {
      const c = await loadContract({ profile: values.profile });
      if (values.json) {
        console.log(
          JSON.stringify(
            {
              title: c.document.info.title,
              version: c.version,
              profile: c.profile,
              operations: c.operations.map((o) => ({
                operationId: o.operationId,
                method: o.method.toUpperCase(),
                path: o.path,
                auth: o.auth,
                pricing: o.pricing,
                batchMax: o.batchMax,
                statuses: o.statuses,
                discovery: o.discovery,
              })),
              decisions: c.decisions.map((d) => d.id),
            },
            null,
            2,
          ),
        );
      } else console.log(renderSummary(c));
      return 0;
    }
    case "lint": {
      const problems = await lintDocument();
      for (const p of problems) console.log(`${p.severity} ${p.rule}: ${p.message} (${p.at})`);
      const errors = problems.filter((p) => p.severity === "error").length;
      console.log(`${errors} errors, ${problems.length - errors} warnings`);
      return errors > 0 ? 1 : 0;
    }
    case "types":
      return derived("types", TYPES_PATH, () => generateTypes(), mode);
    case "decisions":
      return derived("decisions", DECISIONS_PATH, () => renderDecisionsPage(readRawDocument()), mode);
    default:
      console.error(`unknown spec subcommand "${sub}"\n\n${SPEC_HELP}`);
      return 2;
  }
}
