// `plumbline bench mock-search`: the mock against its peers; exit 0 when the targets hold, 1 when not.
import { parseArgs } from "node:util";
import { benchMockSearch, renderBench, writeBench } from "./mock-search-bench.ts";

export const BENCH_HELP = `Usage: plumbline bench mock-search [--duration S] [--connections N] [--rounds N]
       plumbline bench crawl-quality --data DIR [--target URL --api-key KEY] [--json] …  (--help for its options)
       plumbline bench screenshot [--calls N] [--concurrency N] [--browser-spares N] [--gap-ms MS]

  POST /search throughput and p99 of the plumbline mock, Prism mocking the same spec, and a bare Fastify route
  returning the same bytes, on loopback, in N alternating rounds (default 3; the median counts). Writes reports/bench/mock-search.json.
  Targets: mock >= 10x Prism and >= 0.6x bare Fastify. Exit codes: 0 targets hold, 1 a target missed, 2 could not run.

  screenshot: the reference (its own process) shooting a simple local page: p50 and p95 of N warm sequential
  calls, --gap-ms apart (default 50 calls, 100 ms), and screenshots/s at concurrency N (default 4);
  --browser-spares is passed to the reference (default: its own, 2). Writes reports/bench/screenshot.json.
  Target: p50 <= 150 ms.`;

export async function benchCommand(argv: string[]): Promise<number> {
  if (argv[0] === "crawl-quality") {
    const { crawlQualityCommand } = await import("./crawl-quality-cli.ts");
    return crawlQualityCommand(argv.slice(1));
  }
  if (argv[0] === "crawl-load") return (await import("./crawl-load-cli.ts")).crawlLoadCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: "string", default: "5" },
      connections: { type: "string", default: "10" },
      rounds: { type: "string", default: "3" },
      calls: { type: "string", default: "50" },
      concurrency: { type: "string", default: "4" },
      "browser-spares": { type: "string" },
      "gap-ms": { type: "string", default: "100" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(BENCH_HELP);
    return 0;
  }
  if (positionals[0] === "screenshot") {
    const calls = Number(values.calls);
    const concurrency = Number(values.concurrency);
    if (!Number.isInteger(calls) || calls < 5 || calls > 1000) throw new Error("--calls takes 5..1000");
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
      throw new Error("--concurrency takes 1..16");
    const spares = values["browser-spares"] === undefined ? undefined : Number(values["browser-spares"]);
    if (spares !== undefined && !(Number.isInteger(spares) && spares >= 0 && spares <= 16))
      throw new Error("--browser-spares takes 0..16");
    const { benchScreenshot, renderScreenshotBench, writeScreenshotBench } = await import("./screenshot-bench.ts");
    const gapMs = Number(values["gap-ms"]);
    if (!(Number.isInteger(gapMs) && gapMs >= 0 && gapMs <= 10_000)) throw new Error("--gap-ms takes 0..10000");
    const shot = await benchScreenshot({ calls, concurrency, spares, gapMs });
    console.log(renderScreenshotBench(shot));
    console.log(`wrote ${writeScreenshotBench(shot)}`);
    return shot.pass ? 0 : 1;
  }
  if (positionals[0] !== "mock-search")
    throw new Error(`unknown benchmark "${positionals[0] ?? ""}"; known: mock-search, crawl-quality, screenshot`);
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
