// The benchmarks of a target over HTTP (`plumbline bench mock-search | crawl-quality | crawl-load | screenshot`),
// added to `plumbline bench` by bench/cli.ts. Declarations only: each benchmark loads when it runs.
import { Command, decimal, exits, Option, wholeNumber } from "@plumbline-kit/cli/command-kit";

function mockSearchCommand() {
  return new Command("mock-search")
    .summary("POST /search throughput and p99: the mock against Prism and a bare Fastify route")
    .description(
      "POST /search throughput and p99 of the plumbline mock, Prism mocking the same spec, and a bare Fastify route returning the same bytes, each in its own process on loopback, in N alternating rounds (the median counts). Writes reports/bench/mock-search.json. Targets: mock >= 10x Prism and >= 0.6x bare Fastify.",
    )
    .option("--duration <s>", "seconds per target and round, 1..120", decimal(1, 120), 5)
    .option("--connections <n>", "concurrent connections", wholeNumber(1, 1000), 10)
    .option("--rounds <n>", "alternating rounds; the median counts", wholeNumber(1, 10), 3)
    .addHelpText("after", "\nExit codes: 0 the targets hold, 1 a target missed, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchMockSearch, renderBench, writeBench } = await import("./mock-search-bench.ts");
        const result = await benchMockSearch({
          durationSeconds: opts.duration,
          connections: opts.connections,
          rounds: opts.rounds,
        });
        console.log(renderBench(result));
        console.log(`wrote ${writeBench(result)}`);
        return result.pass ? 0 : 1;
      }),
    );
}

function crawlQualityCommand() {
  return new Command("crawl-quality")
    .summary("/crawl text scored on an article-extraction dataset (--data DIR)")
    .description(
      'Serves the article-extraction dataset in DIR on loopback (ground-truth.json: { "<id>": { "articleBody", "url" } }, html/<id>.html.gz: each page as served), crawls every page through the target\'s POST /crawl and scores the returned Markdown (images and links replaced by their text, HTML tags dropped) against articleBody: 4-token shingles, precision and recall per page averaged over pages, F1 their harmonic mean. Prints the figures and the worst pages. Without --target the reference is started for the run (on loopback, SQLite in a temporary folder).',
    )
    .addOption(new Option("--data <dir>", "the dataset folder (ground-truth.json and html/)").makeOptionMandatory())
    .option("--target <url>", "the implementation to judge (it must reach this machine's loopback to fetch the pages)")
    .option("--api-key <key>", "its API key (one crawl per page is charged)")
    .option(
      "--concurrency <n>",
      "crawls in flight (default 4); a 429 pauses them all for its Retry-After",
      wholeNumber(1, 64),
    )
    .option("--timeout <s>", "seconds per crawl, 1..600 (default 60)", decimal(1, 600))
    .option("--min-f1 <n>", "fail (exit 1) below this F1, 0..1 (overrides the floor file's f1)", decimal(0, 1))
    .option(
      "--floor <file>",
      'JSON floors { "f1": N, "precision": N, "recall": N } (any of them), e.g. load/bench/floors/crawl-quality-dev.json',
    )
    .option("--worst <n>", "how many of the worst pages to list (default 10)", wholeNumber(0, 1000))
    .option("--json", "print the result as JSON (figures, floors, worst pages, every page's scores)")
    .addHelpText(
      "after",
      "\nExit codes: 0 every floor holds, 1 a figure is below its floor, 2 could not run (bad arguments, a broken\ndataset folder, an unreachable target, a refused key).",
    )
    .action(
      exits(async (opts) => {
        const { benchCrawlQuality } = await import("./crawl-quality-bench.ts");
        const { readFloor, renderCrawlQuality } = await import("./crawl-quality-render.ts");
        const floor = opts.floor ? readFloor(opts.floor) : {};
        if (opts.minF1 !== undefined) floor.f1 = opts.minF1;
        const run = await benchCrawlQuality({
          data: opts.data,
          target: opts.target,
          apiKey: opts.apiKey,
          concurrency: opts.concurrency,
          timeoutSeconds: opts.timeout,
          worst: opts.worst,
          floor,
          onProgress: opts.json
            ? undefined
            : (done, total) => {
                if (done % 10 === 0 || done === total) process.stderr.write(`crawled ${done}/${total}\n`);
              },
        });
        if (!run.ok) {
          console.error(`plumbline bench crawl-quality: ${run.error}`);
          return 2;
        }
        console.log(opts.json ? JSON.stringify(run.result, null, 2) : renderCrawlQuality(run.result));
        return run.exitCode;
      }),
    );
}

function crawlLoadCommand() {
  return new Command("crawl-load")
    .summary("the reference under crawl load: one parsing thread against the pool (--data DIR)")
    .description(
      "Serves the pages of DIR (html/*.html.gz, the article-extraction layout, or *.html.gz directly) on loopback and crawls them through the reference (started through its CLI), in R rounds of two runs, one with one parsing thread and one with its default pool (or --threads N), in alternating order; each run is N concurrent crawls for S seconds, after W crawls per parsing thread that let V8 finish compiling. In pool runs /health and /usage are probed while idle and while the crawls run. Targets, for the median round: pages/s >= 1.5x the one-thread run; /health and /usage p99 under load <= 2x idle.",
    )
    .addOption(new Option("--data <dir>", "a folder of *.html.gz pages (or html/*.html.gz)").makeOptionMandatory())
    .option("--duration <s>", "seconds per run, 1..300", decimal(1, 300), 15)
    .option("--connections <n>", "concurrent crawls", wholeNumber(1, 256), 16)
    .option("--threads <n>", "parsing threads of the pool runs (default: the reference's own)", wholeNumber(1, 64))
    .option("--rounds <n>", "rounds of two runs; the median round is judged", wholeNumber(1, 20), 3)
    .option("--warmup <n>", "unmeasured crawls per parsing thread first", wholeNumber(0, 10_000), 300)
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 the targets hold, 1 a target missed, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchCrawlLoad, renderCrawlLoad } = await import("./crawl-load.ts");
        const options = {
          dataDir: opts.data,
          durationSeconds: opts.duration,
          connections: opts.connections,
          threads: opts.threads,
          rounds: opts.rounds,
          warmup: opts.warmup,
        };
        const result = await benchCrawlLoad(options);
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderCrawlLoad(result, options));
        return result.pass ? 0 : 1;
      }),
    );
}

function screenshotCommand() {
  return new Command("screenshot")
    .summary("the reference's warm POST /screenshot: p50, p95 and screenshots/s")
    .description(
      "The reference (its own process) shooting a simple local page (png 1280x800): p50 and p95 of N warm sequential calls, --gap-ms apart, and screenshots/s at concurrency N. Writes reports/bench/screenshot.json. Target: p50 <= 150 ms.",
    )
    .option("--calls <n>", "warm sequential calls measured", wholeNumber(5, 1000), 50)
    .option("--gap-ms <ms>", "pause between two sequential calls", wholeNumber(0, 10_000), 100)
    .option("--concurrency <n>", "calls in flight for the screenshots/s figure", wholeNumber(1, 16), 4)
    .option("--browser-spares <n>", "passed to the reference (default: its own, 2)", wholeNumber(0, 16))
    .addHelpText("after", "\nExit codes: 0 the target holds, 1 it missed, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchScreenshot, renderScreenshotBench, writeScreenshotBench } = await import("./screenshot-bench.ts");
        const shot = await benchScreenshot({
          calls: opts.calls,
          concurrency: opts.concurrency,
          spares: opts.browserSpares,
          gapMs: opts.gapMs,
        });
        console.log(renderScreenshotBench(shot));
        console.log(`wrote ${writeScreenshotBench(shot)}`);
        return shot.pass ? 0 : 1;
      }),
    );
}

/** The benchmarks of a target over HTTP, as `plumbline bench` subcommands. */
export function targetBenchCommands() {
  return [mockSearchCommand(), crawlQualityCommand(), crawlLoadCommand(), screenshotCommand()];
}
