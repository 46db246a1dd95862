// `plumbline bench crawl-load --data DIR`: the reference under crawl load (issue 12); exit 0 when the targets hold.
import { parseArgs } from "node:util";
import { benchCrawlLoad, renderCrawlLoad } from "./crawl-load.ts";

export const CRAWL_LOAD_HELP = `Usage: plumbline bench crawl-load --data DIR [--duration S] [--connections N] [--threads N] [--rounds R] [--warmup W] [--json]

  Serves the pages of DIR (html/*.html.gz, the article-extraction layout, or *.html.gz directly) on loopback and
  crawls them through the reference (started through its CLI), in R rounds (default 3) of two runs, one with one
  parsing thread and one with its default pool (or --threads N), in alternating order; each run is N concurrent
  crawls (default 16) for S seconds (default 15), after W crawls per parsing thread (default 300) that let V8
  finish compiling. In pool runs /health and /usage are probed while idle and while the crawls run.
  Targets, for the median round: pages/s >= 1.5x the one-thread run; /health and /usage p99 under load <= 2x idle.
  Exit codes: 0 targets hold, 1 a target missed, 2 could not run.`;

export async function crawlLoadCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: "string" },
      duration: { type: "string", default: "15" },
      connections: { type: "string", default: "16" },
      threads: { type: "string" },
      rounds: { type: "string", default: "3" },
      warmup: { type: "string", default: "300" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(CRAWL_LOAD_HELP);
    return 0;
  }
  if (!values.data) throw new Error("--data DIR is required (a folder of *.html.gz pages)");
  const durationSeconds = Number(values.duration);
  const connections = Number(values.connections);
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (!(durationSeconds >= 1 && durationSeconds <= 300)) throw new Error("--duration takes 1..300 seconds");
  if (!(Number.isInteger(connections) && connections >= 1 && connections <= 256))
    throw new Error("--connections takes 1..256");
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64))
    throw new Error("--threads takes 1..64");
  const rounds = Number(values.rounds);
  if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 20)) throw new Error("--rounds takes 1..20");
  const warmup = Number(values.warmup);
  if (!(Number.isInteger(warmup) && warmup >= 0 && warmup <= 10_000)) throw new Error("--warmup takes 0..10000");
  const options = { dataDir: values.data, durationSeconds, connections, threads, rounds, warmup };
  const result = await benchCrawlLoad(options);
  console.log(values.json ? JSON.stringify(result, null, 2) : renderCrawlLoad(result, options));
  return result.pass ? 0 : 1;
}
