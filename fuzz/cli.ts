// `plumbline fuzz`: property-based fuzzing of a target from the spec (issue 6).
import { parseArgs } from "node:util";
import { ALL_PROPERTIES, type PropertyName } from "./repro/corpus-entry.ts";

export const FUZZ_HELP = `Usage: plumbline fuzz --target URL --api-key KEY [--seed N] [--time S | --runs N] [--only OPERATIONS]
                      [--fixture-url URL] [--payment-key KEY] [--properties NAMES] [--workers N] [--report-dir DIR | --no-report]
                      [--corpus-dir DIR] [--replay FILE|DIR] [--ascii] [--fail-fast] [--request-timeout MS]
                      [--rate R|auto] [--max-credits N]

  --api-key KEY        a funded account (or $PLUMBLINE_API_KEY); on a target that advertises the mock's admin API
                       (GET /__mock) each worker and each model run gets an account of its own
  --seed N             seed of the run (default random, printed): the same seed, budget and workers replay it
  --time S             search budget in seconds (default 30), shared by the properties; a failure gets up to
                       10 s more to shrink. --runs N runs N cases per input property instead (the model N/10)
  --only OPERATIONS    comma-separated operationIds (search,news,crawl,screenshot,sitemap,trending,extract,
                       deepcrawl,usage)
  --payment-key KEY    the target's test payment key (--payment-test-key of the mock or reference, or
                       $PLUMBLINE_PAYMENT_KEY): the stateful model also pays for calls with the Payment scheme
  --fixture-url URL    a site the target can really fetch (e.g. plumbline conform serve-fixtures): URLs in valid
                       bodies are its pages (the URL, its sitemaps' pages), read by the fuzzer first; on crawl also
                       a page that answers 404 or 410 (passed through, charged) and a host that never resolves (502,
                       free). Without it URLs are on the example domains, which only a synthetic target serves;
                       ignored on the mock. To fuzz an implementation that fetches, e.g. the reference:
                       --only crawl,sitemap,usage --fixture-url http://127.0.0.1:4020/
  --properties NAMES   valid-input,invalid-input,stateful-model (default all)
  --workers N          parallel workers on a mock target (default 8)
  --report-dir DIR     default reports/fuzz/<timestamp>: fuzz.json and report.html
  --corpus-dir DIR     where a failure's replay file goes (default fuzz/corpus)
  --replay FILE|DIR    replay corpus entries instead of fuzzing
  --ascii              printable ASCII text only
  --fail-fast          stop after the first property that fails
  --request-timeout MS how long one call may go unanswered before it counts as a hang (default 10000); a batch
                       gets one such allowance per 4 entries, at most its 60 s deadline plus one (D-batch-execution)
  --max-credits N      credits the run may spend of the key: valid cases priced over what is left are not sent;
                       the stateful model then runs only on the mock (its own accounts)
  --rate R|auto        requests per second at most, for a limit the target does not advertise (0: no pacing);
                       auto (default) keeps to the pace the target's RateLimit headers advertise, per policy.
                       Either way the fuzzer's own reads (/usage, status polls) wait out a 429 as Retry-After
                       says; a 429 on a case is counted as throttled, never as a finding

Properties: valid input gets the documented success (or 402 once the balance runs out) with an answer that
validates and costs its price; invalid input (one labelled violation) gets 400/422 naming the field and costs
nothing; no 5xx, no hang, no dropped connection; the balance and deepcrawl tasks follow the model; /health
answers after the run. Exit codes: 0 nothing found, 1 a property failed, 2 the run could not proceed.`;

const list = (v: string | undefined) =>
  v
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function positive(name: string, v: string | undefined, integer = true): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    throw new Error(`--${name} takes a ${integer ? "whole " : ""}number >= 0, not "${v}"`);
  }
  return n;
}

export async function fuzzCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string" },
      "api-key": { type: "string" },
      seed: { type: "string" },
      time: { type: "string" },
      runs: { type: "string" },
      only: { type: "string" },
      "fixture-url": { type: "string" },
      "payment-key": { type: "string" },
      properties: { type: "string" },
      workers: { type: "string" },
      "report-dir": { type: "string" },
      "no-report": { type: "boolean", default: false },
      "corpus-dir": { type: "string" },
      replay: { type: "string" },
      ascii: { type: "boolean", default: false },
      "fail-fast": { type: "boolean", default: false },
      "request-timeout": { type: "string" },
      rate: { type: "string" },
      "max-credits": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(FUZZ_HELP);
    return 0;
  }
  const apiKey = values["api-key"] ?? process.env.PLUMBLINE_API_KEY;
  if (!values.target || !apiKey) throw new Error("--target URL and --api-key KEY (or $PLUMBLINE_API_KEY) are required");
  if (values.time !== undefined && values.runs !== undefined) throw new Error("give --time or --runs, not both");
  const properties = list(values.properties) as PropertyName[] | undefined;
  const bad = (properties ?? []).filter((p) => !ALL_PROPERTIES.includes(p));
  if (bad.length) throw new Error(`unknown properties: ${bad.join(", ")} (known: ${ALL_PROPERTIES.join(", ")})`);
  // loaded on use: every `plumbline` command imports this file, and fast-check is needed by this one only
  const { runFuzz } = await import("./run-fuzz.ts");
  const result = await runFuzz({
    target: values.target,
    apiKey,
    seed: positive("seed", values.seed),
    timeSeconds: positive("time", values.time, false),
    runs: positive("runs", values.runs),
    only: list(values.only),
    fixtureUrl: values["fixture-url"],
    paymentKey: values["payment-key"] ?? process.env.PLUMBLINE_PAYMENT_KEY,
    properties,
    workers: positive("workers", values.workers),
    requestTimeoutMs: positive("request-timeout", values["request-timeout"]),
    reportDir: values["no-report"] ? null : values["report-dir"],
    corpusDir: values["corpus-dir"],
    replay: values.replay,
    ascii: values.ascii,
    failFast: values["fail-fast"],
    maxCredits: positive("max-credits", values["max-credits"]),
    rate: values.rate === undefined || values.rate === "auto" ? "auto" : positive("rate", values.rate, false),
    onProgress: (line) => console.log(line),
  });
  return result.exitCode;
}
