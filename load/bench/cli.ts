// `plumbline bench mock-search`: the mock against its peers; exit 0 when the targets hold, 1 when not.
import { parseArgs } from "node:util";
import { benchMockSearch, renderBench, writeBench } from "./mock-search-bench.ts";

export const BENCH_HELP = `Usage: plumbline bench mock-search [--duration S] [--connections N] [--rounds N]

  POST /search throughput and p99 of the plumbline mock, Prism mocking the same spec, and a bare Fastify route
  returning the same bytes, on loopback, in N alternating rounds (default 3; the median counts). Writes reports/bench/mock-search.json.
  Targets: mock >= 10x Prism and >= 0.6x bare Fastify. Exit codes: 0 targets hold, 1 a target missed, 2 could not run.`;

export async function benchCommand(argv: string[]): Promise<number> {
  if (argv[0] === "crawl-load") return (await import("./crawl-load-cli.ts")).crawlLoadCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: "string", default: "5" },
      connections: { type: "string", default: "10" },
      rounds: { type: "string", default: "3" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(BENCH_HELP);
    return 0;
  }
  if (positionals[0] !== "mock-search")
    throw new Error(`unknown benchmark "${positionals[0] ?? ""}"; known: mock-search`);
  const durationSeconds = Number(values.duration);
  const connections = Number(values.connections);
  if (!(durationSeconds >= 1 && durationSeconds <= 120) || !(connections >= 1 && connections <= 1000)) {
    throw new Error("--duration takes 1..120 seconds and --connections 1..1000");
  }
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error("--rounds takes 1..10");
  const result = await benchMockSearch({ durationSeconds, connections, rounds });
  console.log(renderBench(result));
  console.log(`wrote ${writeBench(result)}`);
  return result.pass ? 0 : 1;
}
