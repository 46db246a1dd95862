// `plumbline bench <benchmark>`: the benchmarks of a target over HTTP live in load/ (a client, which never imports
// the reference) and are handed load/bench/cli.ts's argv unchanged; the benchmarks of the reference's parts in
// this process (deepcrawl, the S3 package store, the page index) live here, beside the test glue they need.
// Each benchmark's module is imported only when it runs, so --help stays fast.
import { parseArgs } from "node:util";

const LOAD_BENCHES = ["mock-search", "crawl-quality", "crawl-load", "screenshot"];
const REFERENCE_BENCHES = ["deepcrawl", "s3-package", "page-index"];
const PROXY_BENCHES = ["proxy"];

export const BENCH_OVERVIEW = `Usage: plumbline bench <benchmark> [options]   (plumbline bench <benchmark> --help for its options)

  Benchmarks of a target over HTTP (load/):
    mock-search     POST /search throughput and p99: the mock against Prism and a bare Fastify route
    crawl-quality   /crawl text scored on an article-extraction dataset (--data DIR)
    crawl-load      the reference under crawl load: one parsing thread against the pool (--data DIR)
    screenshot      the reference's warm POST /screenshot: p50, p95 and screenshots/s

  Benchmarks of the reference's parts, in this process (bench/):
    deepcrawl       one deepcrawl of a generated site: pages/s, the package's size, peak RSS
    s3-package      one package through the S3 package store and back: MiB/s both ways, peak RSS
    page-index      the page index adding and searching a synthetic corpus: pages/s, p50 and p95 (SQLite, PostgreSQL)

  The proxy (bench/, the mock and the proxy as child processes):
    proxy           latency the proxy adds (p50, p99) and its throughput against direct calls; 1,000 concurrent
                    requests through a recording proxy, all in the recording

  Exit codes: 0 ran (and its targets hold, where it has any), 1 a target missed or the run was incomplete,
  2 could not run.`;

export const DEEPCRAWL_BENCH_HELP = `Usage: plumbline bench deepcrawl [--pages N] [--concurrency N] [--json]

  One deepcrawl (type sitemap) of a generated site of N article pages (default 2000) on loopback, through HTTP
  against a reference started in this process (SQLite in a temporary folder, no per-host delay), fetching N pages
  at a time (default 8). Prints the task's end, pages/s, the package's size and this process's RSS before the
  crawl and at its peak during it (sampled every 100 ms): the peak does not grow with the size of the crawl,
  since neither the page list nor the package is held in memory. No targets.

  --pages N         the site's article pages, 1..20000 (default 2000)
  --concurrency N   pages of the task fetched at once, 1..64 (default 8)
  --json            print the result as JSON

  Exit codes: 0 the crawl completed, 1 it failed or a limit stopped it, 2 could not run.`;

export const S3_PACKAGE_BENCH_HELP = `Usage: plumbline bench s3-package [--mib N] [--json]

  One package of N MiB (default 256, random bytes) streamed into the S3 package store as a multipart upload and
  read back, against the in-memory S3 stand-in (test-support/s3-stand-in.ts) running in a child process, so its
  copy of the bytes is not counted here. Prints MiB/s both ways and this process's RSS before, at its peak during
  the upload and at its peak overall (sampled every 20 ms): the upload holds parts, not the package. No targets.

  --mib N           the package's size in MiB, 1..4096 (default 256)
  --json            print the result as JSON

  Exit codes: 0 measured, 1 the bytes read back were not the bytes written, 2 could not run.`;

export const PAGE_INDEX_BENCH_HELP = `Usage: plumbline bench page-index [--pages N] [--database-url postgres://…] [--json]

  The search index (the local backend of POST /search and /news) adding N synthetic pages of about 400 words
  drawn from a fixed vocabulary (default 5000, deterministic), then answering 200 two-word or phrase queries,
  ten results each: pages/s added, and the queries' p50, p95 and max. SQLite in a temporary folder always;
  PostgreSQL too with --database-url, in a schema plumbline_index_bench dropped and made again there. No targets.

  --pages N              synthetic pages to add, 1..100000 (default 5000)
  --database-url URL     also measure PostgreSQL (postgres:// or postgresql://)
  --json                 print the result as JSON

  Exit codes: 0 measured, 2 could not run.`;

export const PROXY_BENCH_HELP = `Usage: plumbline bench proxy [--rounds N] [--requests N] [--duration S] [--connections N] [--json]

  The mock (plumbline mock --rate-limit 0) and the proxy in front of it (plumbline proxy, judging every exchange)
  run as child processes; this process is the client. Each round sends N sequential POST /search calls straight
  to the mock and N through the proxy (keep-alive; p50 and p99), then a throughput run of S seconds with C
  connections against each (autocannon, req/s); the side that goes first alternates between rounds, and the
  figures are the medians over the rounds. Then 1,000 concurrent requests go through a recording proxy started in
  this process and its recording must hold 1,000 entries. Writes reports/bench/proxy.json. Aim (no target: the
  machine's load moves it): p50 added ≤ 1 ms on loopback.

  --rounds N        alternating rounds, 1..50 (default 5)
  --requests N      sequential calls per side per round, 10..100000 (default 300)
  --duration S      seconds of each throughput run, 1..600 (default 3)
  --connections N   connections of the throughput runs, 1..1000 (default 16)
  --json            print the result as JSON

  Exit codes: 0 measured, 1 the recording missed an exchange, 2 could not run.`;

/** A whole number in min..max, or the clear refusal `--name takes min..max`. */
function wholeNumber(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!(/^\d+$/.test(value.trim()) && n >= min && n <= max))
    throw new Error(`--${name} takes ${min}..${max}, not "${value}"`);
  return n;
}

export async function benchCommand(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    console.error(BENCH_OVERVIEW);
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    console.log(BENCH_OVERVIEW);
    return 0;
  }
  // load's benchmarks take their options before their name too (`plumbline bench --duration 5 mock-search`)
  if (name.startsWith("-")) {
    const named = [...REFERENCE_BENCHES, ...PROXY_BENCHES].find((b) => rest.includes(b));
    if (named) throw new Error(`name the benchmark first: plumbline bench ${named} [options]`);
  }
  if (LOAD_BENCHES.includes(name) || name.startsWith("-"))
    return (await import("../load/bench/cli.ts")).benchCommand(argv);
  if (name === "deepcrawl") return deepcrawlCommand(rest);
  if (name === "s3-package") return s3PackageCommand(rest);
  if (name === "page-index") return pageIndexCommand(rest);
  if (name === "proxy") return proxyCommand(rest);
  throw new Error(
    `unknown benchmark "${name}"; known: ${[...LOAD_BENCHES, ...REFERENCE_BENCHES, ...PROXY_BENCHES].join(", ")}`,
  );
}

async function deepcrawlCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      pages: { type: "string", default: "2000" },
      concurrency: { type: "string", default: "8" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(DEEPCRAWL_BENCH_HELP);
    return 0;
  }
  const pages = wholeNumber("pages", values.pages, 1, 20_000);
  const concurrency = wholeNumber("concurrency", values.concurrency, 1, 64);
  const { benchDeepcrawl, renderDeepcrawlBench } = await import("./deepcrawl-bench.ts");
  const result = await benchDeepcrawl({ pages, concurrency });
  console.log(values.json ? JSON.stringify(result, null, 2) : renderDeepcrawlBench(result));
  return result.completed ? 0 : 1;
}

async function s3PackageCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      mib: { type: "string", default: "256" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(S3_PACKAGE_BENCH_HELP);
    return 0;
  }
  const mib = wholeNumber("mib", values.mib, 1, 4096);
  const { benchS3Package, renderS3PackageBench } = await import("./s3-package-bench.ts");
  const result = await benchS3Package({ mib });
  console.log(values.json ? JSON.stringify(result, null, 2) : renderS3PackageBench(result));
  return result.intact ? 0 : 1;
}

async function pageIndexCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      pages: { type: "string", default: "5000" },
      "database-url": { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(PAGE_INDEX_BENCH_HELP);
    return 0;
  }
  const pages = wholeNumber("pages", values.pages, 1, 100_000);
  const databaseUrl = values["database-url"];
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(databaseUrl))
    throw new Error(`--database-url takes a postgres:// or postgresql:// URL, not "${databaseUrl}"`);
  const { benchPageIndex, renderPageIndexBench } = await import("./page-index-bench.ts");
  const result = await benchPageIndex({ pages, databaseUrl });
  console.log(values.json ? JSON.stringify(result, null, 2) : renderPageIndexBench(result));
  return 0;
}

async function proxyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: "string", default: "5" },
      requests: { type: "string", default: "300" },
      duration: { type: "string", default: "3" },
      connections: { type: "string", default: "16" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(PROXY_BENCH_HELP);
    return 0;
  }
  const options = {
    rounds: wholeNumber("rounds", values.rounds, 1, 50),
    requests: wholeNumber("requests", values.requests, 10, 100_000),
    duration: wholeNumber("duration", values.duration, 1, 600),
    connections: wholeNumber("connections", values.connections, 1, 1000),
  };
  const { benchProxy, renderProxyBench } = await import("./proxy-bench.ts");
  const result = await benchProxy(options);
  console.log(values.json ? JSON.stringify(result, null, 2) : renderProxyBench(result));
  return result.recording.complete ? 0 : 1;
}
