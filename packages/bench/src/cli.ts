// `plumbline bench <benchmark>`: the benchmarks of a target over HTTP live in load/ (a client, which never imports
// the reference: load/bench/cli.ts); the benchmarks of the reference's parts in this process (deepcrawl, the S3
// package store, the page index) are declared here, beside the test glue they need. Each benchmark's module is
// imported only when it runs, so --help stays fast.
import { Command, exits, InvalidArgumentError, usageError, wholeNumber } from "@plumbline-kit/cli/command-kit";
import { targetBenchCommands } from "./load/cli.ts";

function postgresUrl(value: string): string {
  if (!/^postgres(ql)?:\/\/./.test(value))
    throw new InvalidArgumentError("Expected a postgres:// or postgresql:// URL.");
  return value;
}

function deepcrawlCommand() {
  return new Command("deepcrawl")
    .summary("one deepcrawl of a generated site: pages/s, the package's size, peak RSS")
    .description(
      "One deepcrawl (type sitemap) of a generated site of N article pages on loopback, through HTTP against a reference started in this process (SQLite in a temporary folder, no per-host delay). Prints the task's end, pages/s, the package's size and this process's RSS before the crawl and at its peak during it (sampled every 100 ms): the peak does not grow with the size of the crawl, since neither the page list nor the package is held in memory. No targets.",
    )
    .option("--pages <n>", "the site's article pages", wholeNumber(1, 20_000), 2000)
    .option("--concurrency <n>", "pages of the task fetched at once", wholeNumber(1, 64), 8)
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 the crawl completed, 1 it failed or a limit stopped it, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchDeepcrawl, renderDeepcrawlBench } = await import("./deepcrawl-bench.ts");
        const result = await benchDeepcrawl({ pages: opts.pages, concurrency: opts.concurrency });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderDeepcrawlBench(result));
        return result.completed ? 0 : 1;
      }),
    );
}

function s3PackageCommand() {
  return new Command("s3-package")
    .summary("one package through the S3 package store and back: MiB/s both ways, peak RSS")
    .description(
      "One package of N MiB (random bytes) streamed into the S3 package store as a multipart upload and read back, against the in-memory S3 stand-in (test-support/s3-stand-in.ts) running in a child process, so its copy of the bytes is not counted here. Prints MiB/s both ways and this process's RSS before, at its peak during the upload and at its peak overall (sampled every 20 ms): the upload holds parts, not the package. No targets.",
    )
    .option("--mib <n>", "the package's size in MiB", wholeNumber(1, 4096), 256)
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 measured, 1 the bytes read back were not the bytes written, 2 could not run.",
    )
    .action(
      exits(async (opts) => {
        const { benchS3Package, renderS3PackageBench } = await import("./s3-package-bench.ts");
        const result = await benchS3Package({ mib: opts.mib });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderS3PackageBench(result));
        return result.intact ? 0 : 1;
      }),
    );
}

function pageIndexCommand() {
  return new Command("page-index")
    .summary("the page index adding and searching a synthetic corpus: pages/s, p50 and p95 (SQLite, PostgreSQL)")
    .description(
      "The search index (the local backend of POST /search and /news) adding N synthetic pages of about 400 words drawn from a fixed vocabulary (deterministic), then answering 200 two-word or phrase queries, ten results each: pages/s added, and the queries' p50, p95 and max. SQLite in a temporary folder always; PostgreSQL too with --database-url, in a schema plumbline_index_bench dropped and made again there. No targets.",
    )
    .option("--pages <n>", "synthetic pages to add", wholeNumber(1, 100_000), 5000)
    .option("--database-url <url>", "also measure PostgreSQL (postgres:// or postgresql://)", postgresUrl)
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 measured, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchPageIndex, renderPageIndexBench } = await import("./page-index-bench.ts");
        const result = await benchPageIndex({ pages: opts.pages, databaseUrl: opts.databaseUrl });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderPageIndexBench(result));
        return 0;
      }),
    );
}

function crashCommand() {
  return new Command("crash")
    .summary("kill -9 of the reference mid-burst, N times: credits lost (must be 0), holds recovered, recovery time")
    .description(
      "The reference started through the CLI (SQLite in a temporary folder; with --database-url also PostgreSQL, two instances on a schema plumbline_crash_bench dropped and made again there), a burst of concurrent POST /search and slow POST /crawl on one key, SIGKILL of the serving process once every crawl's hold is open, a restart on the same data. Prints per run the successes clients saw, the ledger rows, the credits lost (initial - ledger - balance), the successes without a ledger row, the holds the killed server left and recovery released, and the time from the kill until they were (restart included).",
    )
    .option("--runs <n>", "kills per store", wholeNumber(1, 100), 3)
    .option("--searches <n>", "concurrent POST /search in the burst", wholeNumber(1, 10_000), 500)
    .option("--crawls <n>", "slow POST /crawl per server in the burst", wholeNumber(1, 1000), 20)
    .option("--database-url <url>", "also run on PostgreSQL (postgres:// or postgresql://)", postgresUrl)
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 nothing lost, 1 credits lost or a success uncharged, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchCrash, renderCrashBench } = await import("./crash-bench.ts");
        const result = await benchCrash({
          runs: opts.runs,
          searches: opts.searches,
          crawls: opts.crawls,
          databaseUrl: opts.databaseUrl,
        });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderCrashBench(result));
        return result.intact ? 0 : 1;
      }),
    );
}

function extractStallCommand() {
  return new Command("extract-stall")
    .summary("hostile pages through /extract and /sitemap: /health p99 and max during each call, its status and charge")
    .description(
      "Pages that cost a parser far more than their size (100,000 nested divs, 200,000 unclosed divs, a 4.5 MB attribute, 20,000 sibling lists, a sitemap of 200,000 nested <url>s) served on loopback and sent through POST /extract, /sitemap, /crawl and /trending of a reference started in this process (SQLite in a temporary folder), each case N rounds, while a worker thread samples /health every 50 ms. Prints /health's idle p99, its p99 and max during each case's calls, and each call's status, duration and credits taken. No targets.",
    )
    .option("--rounds <n>", "calls of each case", wholeNumber(1, 50), 3)
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 /health max within 1 s during every call and no refused call charged, 1 otherwise, 2 could not run.",
    )
    .action(
      exits(async (opts) => {
        const { benchExtractStall, renderExtractStallBench } = await import("./extract-stall-bench.ts");
        const result = await benchExtractStall({ rounds: opts.rounds });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderExtractStallBench(result));
        return result.ok ? 0 : 1;
      }),
    );
}

function proxyCommand() {
  return new Command("proxy")
    .summary(
      "latency the proxy adds (p50, p99) and its throughput against direct calls; 1,000 concurrent requests recorded",
    )
    .description(
      "The mock (plumbline mock --rate-limit 0) and the proxy in front of it (plumbline proxy, judging every exchange) run as child processes; this process is the client. Each round sends N sequential POST /search calls straight to the mock and N through the proxy (keep-alive; p50 and p99), then a throughput run of S seconds with C connections against each (autocannon, req/s); the side that goes first alternates between rounds, and the figures are the medians over the rounds. Then 1,000 concurrent requests go through a recording proxy started in this process and its recording must hold 1,000 entries. Writes reports/bench/proxy.json. Aim (no target: the machine's load moves it): p50 added <= 1 ms on loopback.",
    )
    .option("--rounds <n>", "alternating rounds", wholeNumber(1, 50), 5)
    .option("--requests <n>", "sequential calls per side per round", wholeNumber(10, 100_000), 300)
    .option("--duration <s>", "seconds of each throughput run", wholeNumber(1, 600), 3)
    .option("--connections <n>", "connections of the throughput runs", wholeNumber(1, 1000), 16)
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 measured, 1 the recording missed an exchange, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchProxy, renderProxyBench } = await import("./proxy-bench.ts");
        const result = await benchProxy({
          rounds: opts.rounds,
          requests: opts.requests,
          duration: opts.duration,
          connections: opts.connections,
        });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderProxyBench(result));
        return result.recording.complete ? 0 : 1;
      }),
    );
}

function proxyCatchCommand() {
  return new Command("proxy-catch")
    .summary(
      "the proxy's passive catch rate: a client journey through it in front of seeded faults, beside the suite's",
    )
    .description(
      "A client's journey (every operation, single and batch, balance reads around the paid calls, a deepcrawl polled to its zip, an empty account, invalid requests, an unknown key) goes through the proxy (judging every exchange) in front of the mock behind one seeded fault at a time: the conformance suite's fault doubles and the fuzzer's, and the live contract's /ask and /feedback faults through a journey of their own (the mock under --contract live). Per fault it reports whether the journey exercised it (the fault changed an answer or charged behind the client's back), the response-side rules the proxy reported, and whether the conformance suite kills it (its own checks for its fault doubles, a whole run for the fuzzer's). First the journey in front of the clean mock (and with --reference the reference), which must leave no response-side violation; a fault only the service can know of (a failed engine left out of errors, a report not stored) is counted apart, never as a miss. Everything but the reference runs in this process. Writes reports/bench/proxy-catch.json.",
    )
    .option("--faults <names>", "only the faults whose name contains one of these (comma-separated)", (v: string) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .option("--no-conformance", "do not run the conformance suite against each faulty target")
    .option("--reference", "also run the journey in front of the reference (a child process, on loopback fixtures)")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 the proxy noticed every exercised fault and nothing on the clean mock, 1 otherwise, 2 could not run.",
    )
    .action(
      exits(async (opts) => {
        const { benchProxyCatch, renderProxyCatchBench } = await import("./proxy-catch-bench.ts");
        const result = await benchProxyCatch({
          conformance: opts.conformance,
          faults: opts.faults,
          reference: opts.reference,
          onFault: opts.json
            ? undefined
            : (f) => console.error(`  ${f.name}: ${f.exercised > 0 ? "exercised" : "not exercised"}`),
        });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderProxyCatchBench(result));
        const clean =
          Object.keys(result.clean).length === 0 &&
          Object.keys(result.liveClean).length === 0 &&
          Object.keys(result.reference?.noticed ?? {}).length === 0;
        return result.totals.missed.length === 0 && clean ? 0 : 1;
      }),
    );
}

function mockSoakCommand() {
  return new Command("mock-soak")
    .summary("the mock under a steady mixed workload for minutes: its RSS after warm-up and at the end, its stores")
    .description(
      "The mock (plumbline mock --rate-limit 0) runs as a child process; this process drives a mixed workload at a steady rate for --minutes: searches (single and batch, ever new queries), news, crawls (single and batch), sitemap, extract, deepcrawl tasks submitted, polled to completion and their zips fetched, usage, 402s and 401s, invalid requests, health and admin calls. It samples the mock's RSS (VmRSS of /proc/PID/status) every 5 s and prints it after the warm-up and at the end (each the peak over the minute before: single samples swing by tens of MB with V8's collections), their ratio and the counts of the mock's stores (GET /__mock/stats). Target: RSS at the end at most 10% above RSS after the warm-up (docs/mock.md, Memory).",
    )
    .option("--minutes <n>", "minutes of the run", wholeNumber(1, 1440), 10)
    .option("--rate <n>", "requests per second", wholeNumber(1, 2000), 60)
    .option("--warm-up <s>", "seconds after which the RSS is the baseline (less than the run)", wholeNumber(1), 120)
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 RSS at the end within 10% of RSS after the warm-up, 1 it grew more, 2 could not run.",
    )
    .action(
      exits(async (opts, cmd) => {
        if (opts.warmUp >= opts.minutes * 60) usageError(cmd, "--warm-up must be less than the run (--minutes)");
        const { benchMockSoak, renderMockSoakBench } = await import("./mock-soak-bench.ts");
        const result = await benchMockSoak({
          minutes: opts.minutes,
          rate: opts.rate,
          warmUpSeconds: opts.warmUp,
          onSample: opts.json
            ? undefined
            : (s) => {
                if (s.atSeconds % 60 < 5)
                  console.error(`  ${s.atSeconds} s: RSS ${(s.rssKb / 1024).toFixed(1)} MB, ${s.requests} requests`);
              },
        });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderMockSoakBench(result));
        return result.flat ? 0 : 1;
      }),
    );
}

function edgesCommand() {
  return new Command("edges")
    .summary("plumbline edges, the whole catalogue, against a client whose tests take ~1 s: its wall time")
    .description(
      "Runs plumbline edges (runEdges) with every edge of the catalogue against the careful client of examples/edges-client (node --test, its six tests calling every paid operation: about a second a run), --jobs at once. Prints the baseline's duration, the whole run's wall time, the verdicts and the slowest runs. Target: the whole run in under a minute on 2 cores (issue 40).",
    )
    .option("--jobs <n>", "runs at once (default: 2, or the cores when fewer)", wholeNumber(1, 64))
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 every edge passed within the target, 1 one failed or the run missed the target, 2 could not run.",
    )
    .action(
      exits(async (opts) => {
        const { benchEdges, renderEdgesBench } = await import("./edges-bench.ts");
        const result = await benchEdges({ jobs: opts.jobs });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderEdgesBench(result));
        return result.withinTarget && result.failed === 0 ? 0 : 1;
      }),
    );
}

function reliabilityCommand() {
  return new Command("reliability")
    .summary("crash, extract-stall and mock-soak one after the other, judged together (issue 38)")
    .description(
      "The reliability cases in one run, one after the other: kill -9 of the reference mid-burst and a restart on the same data (bench crash: credits lost must be 0, every success a client saw charged), hostile pages through /extract, /sitemap, /crawl and /trending (bench extract-stall: /health max within 1 s, no refused call charged), and the mock under a steady mixed workload (bench mock-soak: RSS at the end within 10% of RSS after the warm-up). Prints each case's report, then one line per case. No targets.",
    )
    .option("--crash-runs <n>", "kills per store", wholeNumber(1, 100), 1)
    .option(
      "--database-url <url>",
      "also kill one of two instances on PostgreSQL (postgres:// or postgresql://)",
      postgresUrl,
    )
    .option("--stall-rounds <n>", "calls of each hostile page", wholeNumber(1, 50), 1)
    .option("--soak-minutes <n>", "minutes of the mock's soak", wholeNumber(1, 1440), 10)
    .option(
      "--soak-warm-up <s>",
      "seconds after which the soak's RSS is the baseline (less than the soak)",
      wholeNumber(1),
      120,
    )
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 every case met its target, 1 one did not, 2 could not run.")
    .action(
      exits(async (opts, cmd) => {
        if (opts.soakWarmUp >= opts.soakMinutes * 60)
          usageError(cmd, "--soak-warm-up must be less than the soak (--soak-minutes)");
        const { benchReliability, renderReliabilityBench } = await import("./reliability-bench.ts");
        const result = await benchReliability({
          crashRuns: opts.crashRuns,
          databaseUrl: opts.databaseUrl,
          stallRounds: opts.stallRounds,
          soakMinutes: opts.soakMinutes,
          soakWarmUpSeconds: opts.soakWarmUp,
          onCase: opts.json ? undefined : (name) => console.error(`plumbline bench reliability: ${name}…`),
        });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderReliabilityBench(result));
        return result.ok ? 0 : 1;
      }),
    );
}

function installCommand() {
  return new Command("install")
    .summary("each package installed alone: node_modules size, packages, install time, cold import (vs Prism, MSW)")
    .description(
      "Packs every package (run `npm run build` first) and installs each alone into an empty project (npm install --omit=dev, npm's cache warm), beside Prism's CLI and MSW from the registry: node_modules' size and package count, the install's time and a cold import in a fresh Node (median of 5). The bar (issue 36): the mock's and the client tools' installs each smaller than Prism's, and startMock imported in under 500 ms.",
    )
    .option("--packages <list>", "only these of ours (mock,tools,cli,contract,reference)", (v: string) => v.split(","))
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExit codes: 0 measured and the bar holds, 1 it does not, 2 could not run.")
    .action(
      exits(async (opts) => {
        const { benchInstall, renderInstallBench } = await import("./install-bench.ts");
        const result = await benchInstall({ packages: opts.packages });
        console.log(opts.json ? JSON.stringify(result, null, 2) : renderInstallBench(result));
        return result.holds ? 0 : 1;
      }),
    );
}

export function benchCommand() {
  const bench = new Command("bench")
    .description(
      "Benchmarks: of a target over HTTP (mock-search, crawl-quality, crawl-load, screenshot), of the reference's parts in this process (deepcrawl, s3-package, page-index), of reliability (crash, extract-stall, mock-soak, and all three: reliability) and of the proxy (proxy, proxy-catch). Figures and how they were measured: docs/performance.md.",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 ran (and its targets hold, where it has any), 1 a target missed or the run was incomplete,\n2 could not run.",
    );
  bench.commandsGroup("Benchmarks of a target over HTTP (load/):");
  for (const cmd of targetBenchCommands()) bench.addCommand(cmd);
  bench.commandsGroup("Benchmarks of the reference's parts, in this process (bench/):");
  bench.addCommand(deepcrawlCommand());
  bench.addCommand(s3PackageCommand());
  bench.addCommand(pageIndexCommand());
  bench.commandsGroup(
    "Reliability (bench/: the reference killed mid-burst, hostile pages against it, the mock's memory over a soak):",
  );
  bench.addCommand(crashCommand());
  bench.addCommand(extractStallCommand());
  bench.addCommand(mockSoakCommand());
  bench.addCommand(reliabilityCommand());
  bench.commandsGroup("The proxy (bench/, the mock and the proxy as child processes):");
  bench.addCommand(proxyCommand());
  bench.addCommand(proxyCatchCommand());
  bench.commandsGroup("plumbline edges (bench/):");
  bench.addCommand(edgesCommand());
  bench.commandsGroup("The packages as users install them (bench/):");
  bench.addCommand(installCommand());
  return bench;
}
