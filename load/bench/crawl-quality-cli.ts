// `plumbline bench crawl-quality`: the article-extraction benchmark through a target's POST /crawl. Exit codes: 0 the
// figures hold their floors (or none was given), 1 a figure is below its floor, 2 the run could not proceed.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { benchCrawlQuality, type CrawlQualityOptions, type CrawlQualityResult } from "./crawl-quality-bench.ts";

export const CRAWL_QUALITY_HELP = `Usage: plumbline bench crawl-quality --data DIR [--target URL --api-key KEY] [--concurrency N]
                                     [--timeout S] [--min-f1 N] [--floor FILE] [--worst N] [--json]

  Serves the article-extraction dataset in DIR on loopback (ground-truth.json: { "<id>": { "articleBody", "url" } },
  html/<id>.html.gz: each page as served), crawls every page through the target's POST /crawl and scores the
  returned Markdown (images and links replaced by their text, HTML tags dropped) against articleBody: 4-token
  shingles, precision and recall per page averaged over pages, F1 their harmonic mean. Prints the figures and the
  worst pages. Without --target the reference is started for the run (on loopback, SQLite in a temporary folder).

  --target URL      the implementation to judge (it must reach this machine's loopback to fetch the pages)
  --api-key KEY     its API key (one crawl per page is charged)
  --concurrency N   crawls in flight (default 4); a 429 pauses them all for its Retry-After
  --timeout S       per crawl (default 60)
  --min-f1 N        fail (exit 1) below this F1
  --floor FILE      JSON floors { "f1": N, "precision": N, "recall": N } (any of them), e.g.
                    load/thresholds/crawl-quality.json; --min-f1 overrides its f1
  --worst N         how many of the worst pages to list (default 10)
  --json            print the result as JSON (figures, floors, worst pages, every page's scores)

  Exit codes: 0 every floor holds, 1 a figure is below its floor, 2 could not run (bad arguments, a broken dataset
  folder, an unreachable target, a refused key).`;

const pct = (n: number) => n.toFixed(4);

export function renderCrawlQuality(r: CrawlQualityResult): string {
  const who = r.startedReference ? `the reference (started at ${r.target})` : r.target;
  const lines = [
    `crawl quality of ${who} on ${r.figures.pages} pages of ${r.data} (${r.seconds} s)`,
    `F1 ${pct(r.figures.f1)}  precision ${pct(r.figures.precision)}  recall ${pct(r.figures.recall)}` +
      (r.failed ? `  (${r.failed} crawls failed, scored as nothing extracted)` : ""),
    "",
    `${r.worst.length} worst pages:`,
    "  F1      P       R       page",
    ...r.worst.map(
      (p) =>
        `  ${pct(p.f1)}  ${pct(p.precision)}  ${pct(p.recall)}  ${p.id.slice(0, 12)}  ${p.url}${p.error ? `  [${p.error}]` : ""}`,
    ),
  ];
  for (const b of r.breaches) lines.push(`BELOW FLOOR: ${b}`);
  return lines.join("\n");
}

function readFloor(file: string): NonNullable<CrawlQualityOptions["floor"]> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`--floor ${file}: ${(err as Error).message}`);
  }
  const floor: NonNullable<CrawlQualityOptions["floor"]> = {};
  for (const k of ["f1", "precision", "recall"] as const) {
    const v = (data as Record<string, unknown>)?.[k];
    if (v === undefined) continue;
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new Error(`--floor ${file}: "${k}" takes 0..1`);
    floor[k] = v;
  }
  return floor;
}

function numberOption(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n >= min && n <= max)) throw new Error(`--${name} takes ${min}..${max}, not "${value}"`);
  return n;
}

export async function crawlQualityCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: "string" },
      target: { type: "string" },
      "api-key": { type: "string" },
      concurrency: { type: "string" },
      timeout: { type: "string" },
      "min-f1": { type: "string" },
      floor: { type: "string" },
      worst: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(CRAWL_QUALITY_HELP);
    return 0;
  }
  if (!values.data) throw new Error("--data DIR is required (a folder with ground-truth.json and html/)");
  const floor = values.floor ? readFloor(values.floor) : {};
  const minF1 = numberOption("min-f1", values["min-f1"], 0, 1);
  if (minF1 !== undefined) floor.f1 = minF1;
  const concurrency = numberOption("concurrency", values.concurrency, 1, 64);
  if (concurrency !== undefined && !Number.isInteger(concurrency))
    throw new Error("--concurrency takes a whole number");
  const run = await benchCrawlQuality({
    data: values.data,
    target: values.target,
    apiKey: values["api-key"],
    concurrency,
    timeoutSeconds: numberOption("timeout", values.timeout, 1, 600),
    worst: numberOption("worst", values.worst, 0, 1000),
    floor,
    onProgress: values.json
      ? undefined
      : (done, total) => {
          if (done % 10 === 0 || done === total) process.stderr.write(`crawled ${done}/${total}\n`);
        },
  });
  if (!run.ok) {
    console.error(`plumbline bench crawl-quality: ${run.error}`);
    return 2;
  }
  console.log(values.json ? JSON.stringify(run.result, null, 2) : renderCrawlQuality(run.result));
  return run.exitCode;
}
