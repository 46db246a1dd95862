// `plumbline load`: a load run against a target, judged by thresholds; `plumbline load compare`: the same scenario
// against the plumbline mock, Prism and a bare Fastify route. Declarations only: autocannon and the run load once
// the arguments are good.
import {
  Command,
  decimal,
  exits,
  InvalidArgumentError,
  Option,
  requireOptions,
  usageError,
  wholeNumber,
} from "@plumbline-kit/cli/command-kit";
import {
  apiKeyOption,
  contractOption,
  fixtureUrlOption,
  ignoreRateLimitsOption,
  maxCreditsOption,
  noReportOption,
  rateLimitOption,
  reportDirOption,
  targetOption,
} from "../target-options.ts";
import {
  API_KEY_ENV,
  DEFAULT_ACCOUNT_STATE,
  DEFAULT_EXPORT_DIR,
  DEFAULT_EXPORT_RATE,
  EXPORT_FORMATS,
} from "./export/export-defaults.ts";

function arrivals(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n <= 100_000)) throw new InvalidArgumentError("Expected 0 < R <= 100000 arrivals per second.");
  return n;
}

function compareCommand() {
  return new Command("compare")
    .summary("the same scenario against the mock, Prism and a bare Fastify server")
    .description(
      "The same scenario against the plumbline mock, Prism mocking spec/openapi.yaml and a bare Fastify server answering the bytes the mock answered for each request, each started here on loopback in its own process; N alternating rounds of S seconds, the median round counts. Prints and writes the ratios (compare.json, compare.html).",
    )
    .option("--scenario <name>", "a file of load/scenarios/ or a path (default mixed)")
    .option("--duration <s>", "seconds per round, 1..120", decimal(1, 120), 5)
    .option("--connections <n>", "concurrent connections", wholeNumber(1, 1000), 10)
    .option("--rounds <n>", "alternating rounds; the median counts", wholeNumber(1, 10), 3)
    .option("--report-dir <dir>", "default reports/load/<timestamp>-compare/")
    .addHelpText(
      "after",
      "\nExit codes: 0 compared, 1 the mock answered a status the scenario did not expect, 2 could not run.",
    )
    .action(
      exits(async (opts) => {
        const { runCompare } = await import("./compare/run-compare.ts");
        const { renderCompare, writeCompare } = await import("./compare/compare-report.ts");
        const { defaultReportDir } = await import("./report/write-report.ts");
        const run = await runCompare({
          scenario: opts.scenario,
          durationSeconds: opts.duration,
          connections: opts.connections,
          rounds: opts.rounds,
          onRound: (line) => process.stderr.write(`${line}\n`),
        });
        if (!run.ok) {
          console.error(`plumbline load compare: ${run.error}`);
          return 2;
        }
        console.log(renderCompare(run.result));
        const dir = opts.reportDir ?? defaultReportDir(new Date(run.result.at), "-compare");
        const files = writeCompare(run.result, dir);
        console.log(`\nreport: ${files.html}\n        ${files.json}`);
        return run.result.comparison.figures[0].unexpected === 0 ? 0 : 1;
      }),
    );
}

function exportCommand() {
  return new Command("export")
    .summary("the scenario, its thresholds and the target's limits as an Artillery or k6 script")
    .description(
      `A plumbline scenario, its thresholds and the target's limits as a script for a distributed load engine: artillery writes NAME.artillery.yml and its processor NAME.processor.mjs (one Artillery scenario per request, weights kept, the deepcrawl flow polled to its zip, the thresholds as ensure conditions); k6 writes NAME.k6.js (options.scenarios, an arrival-rate scenario, and options.thresholds; not run here). The API key is read from $${API_KEY_ENV} when the script runs; it is never written into a file (docs/load-export.md).`,
    )
    .option("--scenario <name>", "a file of load/scenarios/ or a path (default mixed)")
    .addOption(targetOption("the API the script loads (Artillery: config.target; artillery run --target overrides it)"))
    .addOption(new Option("--format <engine>", "the engine to write for").choices(EXPORT_FORMATS).makeOptionMandatory())
    .option("--out <dir>", "where the files go", DEFAULT_EXPORT_DIR)
    .option(
      "--thresholds <file|name>",
      "budgets, as plumbline load takes them (default mock; reference for the reference)",
    )
    .addOption(fixtureUrlOption("the fixture site filled into {{fixture}} (the reference scenario needs one)"))
    .option(
      "--rate <r>",
      `arrivals per second of one load generator (default ${DEFAULT_EXPORT_RATE}; Artillery's --count N and k6-operator's parallelism run N generators: N x R in all; the engines are open-loop: plumbline load's closed loop has no equivalent); a deepcrawl flow is one arrival`,
      arrivals,
    )
    .option("--duration <s>", "measured seconds, 1..600 (default 10)", decimal(1, 600))
    .option(
      "--warmup <s>",
      "a ramp from 1 arrival/s to R first, 0..60 (default 2; not measured; flows have none)",
      decimal(0, 60),
    )
    .addOption(
      rateLimitOption(
        "With auto and --api-key the limits are read now (one free GET /usage) and the rate capped at 90% of what they allow; without a key the script learns them from its answers. Either way the script holds back an arrival that would exceed a window and counts a 429 within the policy as throttling",
      ),
    )
    .addOption(ignoreRateLimitsOption("not paced, a 429 is an error (limits lifted for the test key)"))
    .addOption(new Option("--api-key <key>", "only to read the target's limits at export").env(API_KEY_ENV))
    .addHelpText(
      "after",
      "\nExit codes: 0 written, 2 could not export (bad arguments, a scenario or thresholds file that does not check,\n{{fixture}} without --fixture-url, a target whose limits could not be read).",
    )
    .action(
      exits(async (opts) => {
        const { exportScripts } = await import("./export/export-cli.ts");
        return exportScripts({
          scenario: opts.scenario,
          target: opts.target,
          format: opts.format,
          outDir: opts.out,
          thresholds: opts.thresholds,
          fixtureUrl: opts.fixtureUrl,
          rate: opts.rate,
          durationSeconds: opts.duration,
          warmupSeconds: opts.warmup,
          rateLimit: opts.rateLimit,
          ignoreRateLimits: opts.ignoreRateLimits ?? false,
          apiKey: opts.apiKey,
        });
      }),
    );
}

function accountCommand() {
  return new Command("account")
    .summary("the credit accounting of a run made from an exported script")
    .description(
      "The credit accounting of a run made from an exported script, in two steps around it: --before reads the balance (GET /usage) and records it in the state file; --report FILE reads the engine's JSON report (artillery run --output FILE, or k6 run --summary-export FILE) and checks what the script counted (credits of the successful calls, priced from the spec; paid requests never answered) against the fall of the balance since --before.",
    )
    .addOption(
      new Option("--before", "read the balance before the run and record it in the state file").conflicts("report"),
    )
    .option("--report <file>", "the engine's JSON report of the run, to check")
    .addOption(targetOption("the API the run loaded"))
    .addOption(apiKeyOption("the key the run used"))
    .option("--state <file>", `where --before records the balance (default ${DEFAULT_ACCOUNT_STATE})`)
    .addOption(
      new Option("--start-balance <n>", "the balance before the run, instead of a state file")
        .argParser(wholeNumber(0))
        .conflicts(["before", "state"]),
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 the balance fell by exactly what the run's successful calls cost (up to the unanswered ones'\nprice), 1 it did not (over- or under-charged, named), 2 could not check (no state, a report without the\nscript's counters, an unreachable target, a refused key).",
    )
    .action(
      exits(async (opts, cmd) => {
        if (!opts.before && !opts.report) usageError(cmd, "give --before (before the run) or --report FILE (after it)");
        const { accountStep } = await import("./export/export-cli.ts");
        return accountStep({
          target: opts.target,
          apiKey: opts.apiKey,
          before: opts.before,
          report: opts.report,
          state: opts.state,
          startBalance: opts.startBalance,
        });
      }),
    );
}

export function loadCommand() {
  const load = new Command("load")
    .description(
      "Put a scenario of traffic on a target, in a closed loop (autocannon) or an open loop at a fixed arrival rate, and judge it by k6-style thresholds, the credit accounting and an optional baseline (docs/load-and-gate.md).",
    )
    .addOption(
      targetOption("base URL of the API under load; loopback only unless --allow-remote").makeOptionMandatory(false),
    )
    .addOption(
      apiKeyOption(
        "a funded key; a run spends real credits: give the mock plenty (plumbline mock --key KEY:1000000000 --rate-limit 0)",
      ).makeOptionMandatory(false),
    )
    .option("--scenario <name>", "a file of load/scenarios/ (default mixed) or a path; --list shows them")
    .option("--list", "list the scenarios and exit")
    .option(
      "--duration <s>",
      "measured seconds, 1..600 (default 10); answers are awaited at most 10 s more",
      decimal(1, 600),
    )
    .option(
      "--warmup <s>",
      "unmeasured seconds first, 0..60 (default 2; its charges still count for the accounting)",
      decimal(0, 60),
    )
    .option(
      "--connections <n>",
      "closed loop: concurrent connections (default 10); open loop: the most sockets used",
      wholeNumber(1, 1000),
    )
    .option(
      "--rate <r>",
      "open loop: R arrivals per second on a fixed schedule, latency measured from each scheduled arrival (coordinated omission shows instead of hiding)",
      arrivals,
    )
    .option(
      "--thresholds <file|name>",
      "budgets: a path, or a name in load/thresholds/ (default mock; reference for the reference)",
    )
    .addOption(
      fixtureUrlOption(
        "a site the target can fetch, filled into {{fixture}} in scenario bodies; the reference scenario needs one (plumbline conform serve-fixtures serves it on 127.0.0.1:4020)",
      ),
    )
    .option(
      "--baseline <file>",
      "an earlier load.json: fail on a regression beyond the file's baseline.maxRegressionPercent",
    )
    .addOption(reportDirOption("where load.json and report.html go (default reports/load/<timestamp>)"))
    .addOption(noReportOption())
    .option("--allow-remote", "allow a target that is not on loopback (a load run against a deployment is deliberate)")
    .option("--seed <n>", "seed of the scenario's weighted mix (default 1)", wholeNumber(0))
    .addOption(
      rateLimitOption(
        "The load is paced under them: an open loop at 90% of the rate the account's policy allows (below --rate if lower), an arrival that would exceed a window held back (not sent, reported), a 429 carrying Retry-After and the RateLimit headers counted as throttling (reported, not an error), the run's own /usage reads waiting out Retry-After. The report says what rate the limits allowed and which thresholds could not be judged at it",
      ),
    )
    .addOption(
      ignoreRateLimitsOption(
        "no pacing, a 429 is an error: for a target whose operator lifted the limits for the test key, or the mock and the reference with --rate-limit 0",
      ),
    )
    .addOption(maxCreditsOption("the most the run may spend: a paid request that could take it past N is held back"))
    .addOption(contractOption("whose prices and statuses judge the answers"))
    .addHelpText(
      "after",
      `
Against the reference (it fetches real pages: point it at a fixture site, never the open web):
  plumbline conform serve-fixtures &
  plumbline reference --key LOAD:100000000 --rate-limit 0 --allow-private-network &
  plumbline load --target http://127.0.0.1:8080 --api-key LOAD --scenario reference \\
                 --fixture-url http://127.0.0.1:4020 --thresholds reference

Exit codes: 0 every threshold holds (those the limits' rate cannot judge are skipped, and said), 1 a
threshold, the credit accounting or the baseline broke (named), 2 the run could not proceed (bad arguments,
a remote target without --allow-remote, unreachable target, refused key, a scenario or thresholds file that
does not check, {{fixture}} without --fixture-url).`,
    )
    .action(
      exits(async (opts, cmd) => {
        if (opts.list) {
          const { listScenarios, readScenario } = await import("./scenario-file.ts");
          const { needsFixture } = await import("./scenario-vars.ts");
          for (const name of listScenarios()) {
            const s = readScenario(name);
            const fixture = s.ok && needsFixture(s.scenario) ? " (needs --fixture-url)" : "";
            console.log(`${name.padEnd(18)} ${s.ok ? s.scenario.description : s.error}${fixture}`);
          }
          return 0;
        }
        requireOptions(cmd, ["target", "apiKey"]);
        const { runLoad } = await import("./run-load.ts");
        const { progressLine, renderSummary } = await import("./render-summary.ts");
        const durationSeconds = opts.duration ?? 10;
        const run = await runLoad({
          target: opts.target as string,
          apiKey: opts.apiKey as string,
          scenario: opts.scenario,
          contractVersion: opts.contract,
          durationSeconds,
          warmupSeconds: opts.warmup,
          connections: opts.connections,
          rate: opts.rate,
          thresholds: opts.thresholds,
          fixtureUrl: opts.fixtureUrl,
          baseline: opts.baseline,
          reportDir: opts.report ? opts.reportDir : null,
          allowRemote: opts.allowRemote ?? false,
          seed: opts.seed,
          rateLimit: opts.rateLimit,
          ignoreRateLimits: opts.ignoreRateLimits ?? false,
          maxCredits: opts.maxCredits,
          onWait: (line) => process.stderr.write(`${line}\n`),
          onProgress: (p) => process.stderr.write(`${progressLine(p, durationSeconds)}\n`),
        });
        if (!run.ok) {
          console.error(`plumbline load: ${run.error}`);
          return run.exitCode;
        }
        console.log(renderSummary(run.report, run.files));
        return run.exitCode;
      }),
    );
  load.addCommand(compareCommand());
  load.addCommand(exportCommand());
  load.addCommand(accountCommand());
  return load;
}
