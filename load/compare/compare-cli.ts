// `plumbline load compare`: parses its flags, runs the comparison, prints and writes it.
import { parseArgs } from "node:util";
import { defaultReportDir } from "../report/write-report.ts";
import { renderCompare, writeCompare } from "./compare-report.ts";
import { runCompare } from "./run-compare.ts";

export const COMPARE_HELP = `plumbline load compare [--scenario NAME] [--duration S] [--connections N] [--rounds N] [--report-dir DIR]
  The same scenario (default mixed) against the plumbline mock, Prism mocking spec/openapi.yaml and a bare
  Fastify server answering the bytes the mock answered for each request, each started here on loopback in its
  own process; N alternating rounds (default 3) of S seconds (default 5); the median round counts.
  Prints and writes the ratios (default reports/load/<timestamp>-compare/: compare.json, compare.html).
  Exit codes: 0 compared, 1 the mock answered a status the scenario did not expect, 2 could not run.`;

export async function compareCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: "string" },
      duration: { type: "string", default: "5" },
      connections: { type: "string", default: "10" },
      rounds: { type: "string", default: "3" },
      "report-dir": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(COMPARE_HELP);
    return 0;
  }
  const durationSeconds = Number(values.duration);
  const connections = Number(values.connections);
  const rounds = Number(values.rounds);
  if (!(durationSeconds >= 1 && durationSeconds <= 120)) throw new Error("--duration takes 1..120 seconds");
  if (!(Number.isInteger(connections) && connections >= 1 && connections <= 1000))
    throw new Error("--connections takes 1..1000");
  if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 10)) throw new Error("--rounds takes 1..10");
  const run = await runCompare({
    scenario: values.scenario,
    durationSeconds,
    connections,
    rounds,
    onRound: (line) => process.stderr.write(`${line}\n`),
  });
  if (!run.ok) {
    console.error(`plumbline load compare: ${run.error}`);
    return 2;
  }
  console.log(renderCompare(run.result));
  const files = writeCompare(run.result, values["report-dir"] ?? defaultReportDir(new Date(run.result.at), "-compare"));
  console.log(`\nreport: ${files.html}\n        ${files.json}`);
  return run.result.comparison.figures[0].unexpected === 0 ? 0 : 1;
}
