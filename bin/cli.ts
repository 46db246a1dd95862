// `plumbline <command>`: one dispatcher; each command lives in its own part and is also a typed API (index.ts).
// Each command's module is imported only when that command runs: the parts pull in very different dependencies
// (SQLite and PostgreSQL drivers, Chromium drivers, image codecs, autocannon), and loading all of them through
// tsx made every start, even `--help`, take seconds.
type Command = { summary: string; run: (argv: string[]) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  bench: {
    summary:
      "benchmarks: the mock, crawl quality and load, screenshots; the reference's deepcrawl, S3 store, page index",
    run: async (argv) => (await import("../bench/cli.ts")).benchCommand(argv),
  },
  conform: {
    summary: "run the conformance suite against a target",
    run: async (argv) => (await import("../conformance/cli.ts")).conformCommand(argv),
  },
  fuzz: {
    summary: "property-based fuzzing of a target from the spec",
    run: async (argv) => (await import("../fuzz/cli.ts")).fuzzCommand(argv),
  },
  gate: {
    summary: "conformance, a time-boxed fuzz and a short load run in one CI step, one exit code",
    run: async (argv) => (await import("../gate/cli.ts")).gateCommand(argv),
  },
  load: {
    summary: "load a target with a scenario and judge it by thresholds",
    run: async (argv) => (await import("../load/cli.ts")).loadCommand(argv),
  },
  mock: {
    summary: "run the stateful mock of the API (npm start)",
    run: async (argv) => (await import("../mock/cli.ts")).mockCommand(argv),
  },
  proxy: {
    summary: "a validating, recording proxy in front of a target (hybrid: some operations from the mock)",
    run: async (argv) => (await import("../proxy/cli.ts")).proxyCommand(argv),
  },
  reference: {
    summary: "run the reference implementation (SQL accounts, real engines); `reference keys` administers keys",
    run: async (argv) => (await import("../reference/cli.ts")).referenceCommand(argv),
  },
  spec: {
    summary: "validate, summarise, lint and regenerate from spec/openapi.yaml",
    run: async (argv) => (await import("../spec/cli.ts")).specCommand(argv),
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
