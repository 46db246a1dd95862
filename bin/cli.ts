// `plumbline <command>`: one dispatcher; each command lives in its own part and is also a typed API (index.ts).
import { CONFORM_HELP, conformCommand } from "../conformance/cli.ts";
import { FUZZ_HELP, fuzzCommand } from "../fuzz/cli.ts";
import { BENCH_HELP, benchCommand } from "../load/bench/cli.ts";
import { LOAD_HELP, loadCommand } from "../load/cli.ts";
import { MOCK_HELP, mockCommand } from "../mock/cli.ts";
import { REFERENCE_HELP, referenceCommand } from "../reference/cli.ts";
import { SPEC_HELP, specCommand } from "../spec/cli.ts";

type Command = { summary: string; help: string; run: (argv: string[]) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  bench: { summary: "benchmark the mock against Prism and a bare Fastify route", help: BENCH_HELP, run: benchCommand },
  conform: { summary: "run the conformance suite against a target", help: CONFORM_HELP, run: conformCommand },
  fuzz: { summary: "property-based fuzzing of a target from the spec", help: FUZZ_HELP, run: fuzzCommand },
  load: { summary: "load a target with a scenario and judge it by thresholds", help: LOAD_HELP, run: loadCommand },
  mock: { summary: "run the stateful mock of the API (npm start)", help: MOCK_HELP, run: mockCommand },
  reference: {
    summary: "run the reference implementation (SQL accounts, real engines); `reference keys` administers keys",
    help: REFERENCE_HELP,
    run: referenceCommand,
  },
  spec: {
    summary: "validate, summarise, lint and regenerate from spec/openapi.yaml",
    help: SPEC_HELP,
    run: specCommand,
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    "Usage: plumbline <command> [options]",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    "",
    "Run `plumbline <command> --help` for a command's options.",
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`plumbline: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    // bad arguments (parseArgs) and a contract that does not load are "could not run": exit 2
    console.error(`plumbline ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
}
