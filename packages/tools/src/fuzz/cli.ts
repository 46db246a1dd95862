// `plumbline fuzz`: property-based fuzzing of a target from the spec. Declarations only: fast-check and the
// fuzzer load once the arguments are good.
import {
  Command,
  commaList,
  commaListOf,
  decimal,
  exits,
  InvalidArgumentError,
  Option,
  wholeNumber,
} from "@plumbline-kit/cli/command-kit";
import { contractOption } from "../target-options.ts";
import { ALL_PROPERTIES } from "./repro/corpus-entry.ts";

function rate(value: string): number | "auto" {
  if (value === "auto") return "auto";
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError("Expected auto or a number of requests per second >= 0.");
  return n;
}

export function fuzzCommand() {
  return new Command("fuzz")
    .description(
      "Property-based fuzzing of a target from the spec: valid input gets the documented success (or 402 once the balance runs out) with an answer that validates and costs its price; invalid input (one labelled violation) gets 400/422 naming the field and costs nothing; no 5xx, no hang, no dropped connection; the balance and deepcrawl tasks follow the model; /health answers after the run (docs/fuzz.md).",
    )
    .addOption(new Option("--target <url>", "base URL of the implementation to fuzz").makeOptionMandatory())
    .addOption(
      new Option(
        "--api-key <key>",
        "a funded account; on a target that advertises the mock's admin API (GET /__mock) each worker and each model run gets an account of its own",
      )
        .env("PLUMBLINE_API_KEY")
        .makeOptionMandatory(),
    )
    .option(
      "--seed <n>",
      "seed of the run (default random, printed): the same seed, budget and workers replay it",
      wholeNumber(0),
    )
    .addOption(
      new Option(
        "--time <s>",
        "search budget in seconds (default 30), shared by the properties; a failure gets up to 10 s more to shrink",
      )
        .argParser(decimal(0))
        .conflicts("runs"),
    )
    .option("--runs <n>", "cases per input property instead of a time budget (the model runs n/10)", wholeNumber(0))
    .option(
      "--operations <ids>",
      "comma-separated operationIds to fuzz (search,news,crawl,screenshot,sitemap,trending,extract,deepcrawl,usage; default all)",
      commaList,
    )
    .addOption(
      new Option("--only <ids>", "old name of --operations, kept for scripts")
        .argParser(commaList)
        .conflicts("operations"),
    )
    .option(
      "--fixture-url <url>",
      "a site the target can really fetch (e.g. plumbline conform serve-fixtures): URLs in valid bodies are its pages (the URL, its sitemaps' pages); on crawl also a page that answers 404 or 410 (passed through, charged) and a host that never resolves (502, free). Without it URLs are on the example domains, which only a synthetic target serves; ignored on the mock",
    )
    .addOption(
      new Option(
        "--payment-key <key>",
        "the target's test payment key (--payment-test-key of the mock or reference): the stateful model also pays for calls with the Payment scheme",
      ).env("PLUMBLINE_PAYMENT_KEY"),
    )
    .option(
      "--properties <names>",
      `comma-separated properties to check: ${ALL_PROPERTIES.join(", ")} (default all)`,
      commaListOf(ALL_PROPERTIES),
    )
    .option("--workers <n>", "parallel workers on a mock target (default 8; one elsewhere)", wholeNumber(1, 64))
    .option("--report-dir <dir>", "where fuzz.json and report.html go (default reports/fuzz/<timestamp>)")
    .option("--no-report", "write no report")
    .option("--corpus-dir <dir>", "where a failure's replay file goes (default fuzz/corpus)")
    .option("--replay <file|dir>", "replay corpus entries instead of fuzzing")
    .addOption(contractOption("whose operations and schemas are fuzzed"))
    .option("--ascii", "printable ASCII text only")
    .option("--fail-fast", "stop after the first property that fails")
    .option(
      "--request-timeout <ms>",
      "how long one call may go unanswered before it counts as a hang (default 10000); a batch gets one such allowance per 4 entries, at most its 60 s deadline plus one (D-batch-execution)",
      wholeNumber(1),
    )
    .option(
      "--max-credits <n>",
      "credits the run may spend of the key: valid cases priced over what is left are not sent; the stateful model then runs only on the mock (its own accounts)",
      wholeNumber(0),
    )
    .addOption(
      new Option(
        "--rate <r|auto>",
        "requests per second at most, for a limit the target does not advertise (0: no pacing); auto keeps to the pace the target's RateLimit headers advertise, per policy. Either way the fuzzer's own reads (/usage, status polls) wait out a 429 as Retry-After says; a 429 on a case is counted as throttled, never as a finding",
      )
        .argParser(rate)
        .default("auto" as number | "auto"),
    )
    .addHelpText(
      "after",
      `
To fuzz an implementation that fetches pages, e.g. the reference:
  plumbline fuzz --target http://127.0.0.1:8080 --api-key KEY --operations crawl,sitemap,usage --fixture-url http://127.0.0.1:4020/

Exit codes: 0 nothing found, 1 a property failed, 2 the run could not proceed.`,
    )
    .action(
      exits(async (opts) => {
        const { runFuzz } = await import("./run-fuzz.ts");
        const result = await runFuzz({
          target: opts.target,
          apiKey: opts.apiKey,
          seed: opts.seed,
          timeSeconds: opts.time,
          runs: opts.runs,
          operations: opts.operations ?? opts.only,
          contractVersion: opts.contract,
          fixtureUrl: opts.fixtureUrl,
          paymentKey: opts.paymentKey,
          properties: opts.properties,
          workers: opts.workers,
          requestTimeoutMs: opts.requestTimeout,
          reportDir: opts.report ? opts.reportDir : null,
          corpusDir: opts.corpusDir,
          replay: opts.replay,
          ascii: opts.ascii,
          failFast: opts.failFast,
          maxCredits: opts.maxCredits,
          rate: opts.rate,
          onProgress: (line) => console.log(line),
        });
        if (result.exitCode === 2 && result.report.error)
          console.error(`plumbline fuzz: could not run: ${result.report.error}`);
        return result.exitCode;
      }),
    );
}
