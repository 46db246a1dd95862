// `plumbline gate`: conformance, a time-boxed fuzz and a short load run in one CI step. Declarations only: the
// three stages load once the arguments are good.
import { Command, commaListOf, exits, Option, usageError, wholeNumber } from "@plumbline-kit/cli/command-kit";
import { plural } from "@plumbline-kit/contract/report/plural";
import {
  allowSkippedOption,
  apiKeyOption,
  brokeApiKeyOption,
  contractOption,
  fixtureLogOption,
  fixtureManifestOption,
  fixtureUrlOption,
  ignoreRateLimitsOption,
  noReportOption,
  oauthPasswordOption,
  oauthUserOption,
  operationsOption,
  paymentKeyOption,
  paymentMethodOption,
  rateLimitOption,
  reportDirOption,
  reporterOption,
  targetOption,
} from "../target-options.ts";
import { STAGES } from "./gate-types.ts";

export function gateCommand() {
  return new Command("gate")
    .description(
      "Conformance, a time-boxed fuzz and a short load run against one target, with one exit code, one JUnit file (a suite per stage) and one HTML page linking the stages' reports (docs/load-and-gate.md).",
    )
    .addOption(targetOption("base URL of the implementation to gate; loopback only unless --allow-remote"))
    .addOption(apiKeyOption())
    .addOption(brokeApiKeyOption())
    .addOption(
      new Option("--stages <list>", `which stages run, in this order: ${STAGES.join(", ")} (default all)`).argParser(
        commaListOf(STAGES),
      ),
    )
    .option(
      "--budget-credits <n>",
      "credits of the key the whole gate may spend (default: the key's balance at the start): conformance refuses a plan over it, the fuzzer sends no valid case priced over what is left, load runs at a rate the rest covers and holds back a request that could take it past it",
      wholeNumber(0),
    )
    .option(
      "--time <s>",
      "seconds for the whole gate, at least 10 (default 120): the fuzzer and the load run share what the conformance run leaves",
      wholeNumber(10),
    )
    .option(
      "--fuzz-runs <n>",
      "cases per input property of the fuzz stage (its model runs a tenth as many), as Schemathesis' max-examples: the stage ends when they are done or its share of --time is up, so the same --fuzz-seed does the same work on any machine (default: the stage fills its share)",
      wholeNumber(1),
    )
    .option("--fuzz-seed <n>", "seed of the fuzz stage (default random, printed in its report)", wholeNumber(0))
    .addOption(operationsOption("the operations the target implements (conform and fuzz --operations)"))
    .addOption(
      fixtureUrlOption(
        "a fixture site the target can fetch (with --fixture-manifest): a hosted export for a deployment, or serve-fixtures --host 0.0.0.0 on a network it shares. Default: the suite serves one on 127.0.0.1, which only a local target started with --allow-private-network reads. The load scenario reference needs one",
      ),
    )
    .addOption(fixtureManifestOption())
    .addOption(fixtureLogOption())
    .addOption(allowSkippedOption("the gate"))
    .addOption(paymentMethodOption("the conformance payment checks"))
    .addOption(paymentKeyOption())
    .addOption(contractOption("every stage judges by"))
    .addOption(oauthUserOption("the conformance OAuth checks"))
    .addOption(oauthPasswordOption())
    .addOption(
      rateLimitOption(
        "Conformance and the fuzzer pace themselves under them, the load stage runs at the rate they allow, counts a 429 within them as throttling and says which thresholds that rate cannot judge",
      ),
    )
    .addOption(
      ignoreRateLimitsOption(
        "the load stage unpaced, a 429 an error (a target whose limits were lifted for the test key)",
      ),
    )
    .option("--scenario <name>", "the load stage's scenario (default mixed; plumbline load --list)")
    .option(
      "--thresholds <file|name>",
      "the load stage's budgets (default gate: no errors and no answer slower than 35 s, no speed budget: a speed budget is the deployment owner's to state, in a file like load/thresholds/reference.json; the names mock and reference are this project's measured ones)",
    )
    .option(
      "--wait-for-target <s>",
      "seconds to wait for the target to answer GET /health at all before the first stage (default 30; 0: no wait), so a CI step may start it in the background just before",
      wholeNumber(0),
    )
    .option("--allow-remote", "allow a target that is not on loopback (the load stage refuses one otherwise)")
    .addOption(
      reportDirOption(
        "default reports/gate/<timestamp>: index.html (linking each stage's report), junit.xml (one suite per stage), gate.json, and conform/, fuzz/, load/",
      ),
    )
    .addOption(noReportOption())
    .addOption(reporterOption("failing check, property or threshold, and stage that could not run"))
    .addHelpText(
      "after",
      `
Exit codes: 0 every stage passed, 1 a check, property or threshold failed or conformance checks were skipped
for a missing precondition not allowed, 2 a stage could not run (or the options cannot work).`,
    )
    .action(
      exits(async (opts, cmd) => {
        if (opts.paymentMethod !== undefined && !opts.paymentKey)
          usageError(cmd, "--payment-method test needs --payment-key KEY (the target's test key)");
        const { runGate } = await import("./run-gate.ts");
        const r = await runGate({
          target: opts.target,
          apiKey: opts.apiKey,
          brokeApiKey: opts.brokeApiKey,
          stages: opts.stages,
          budgetCredits: opts.budgetCredits,
          timeSeconds: opts.time,
          fuzzRuns: opts.fuzzRuns,
          fuzzSeed: opts.fuzzSeed,
          operations: opts.operations,
          contractVersion: opts.contract,
          fixtureUrl: opts.fixtureUrl,
          fixtureManifest: opts.fixtureManifest,
          fixtureLog: opts.fixtureLog,
          allowSkipped: opts.allowSkipped,
          paymentMethod: opts.paymentMethod,
          paymentKey: opts.paymentMethod ? opts.paymentKey : undefined,
          oauthUser: opts.oauthUser,
          oauthPassword: opts.oauthPassword,
          waitForTargetSeconds: opts.waitForTarget,
          rateLimit: opts.rateLimit,
          ignoreRateLimits: opts.ignoreRateLimits ?? false,
          scenario: opts.scenario,
          thresholds: opts.thresholds,
          allowRemote: opts.allowRemote ?? false,
          reportDir: opts.report ? opts.reportDir : null,
          onProgress: (line) => console.log(line),
        });
        const seconds = r.seconds.toFixed(1);
        const { chosenReporter, githubAnnotation } = await import("@plumbline-kit/contract/report/github");
        const annotate = async () => {
          if (chosenReporter(opts.reporter, process.env) !== "github") return;
          const { gateAnnotations } = await import("./gate-annotations.ts");
          for (const a of gateAnnotations(r)) console.log(githubAnnotation(a));
        };
        // nothing ran: one line naming the cause (and what to do) instead of a tally of no stages
        if (r.error) {
          console.error(`plumbline gate: could not run (after ${seconds} s): ${r.error}`);
          await annotate();
          return r.exitCode;
        }
        const stages = r.stages.map((s) => `${s.stage} ${s.exitCode}`).join(", ");
        const verdict = r.exitCode === 0 ? "passed" : r.exitCode === 1 ? "FAILED" : "could not run";
        const spent = r.creditsSpent === null ? "credits spent unknown" : plural(r.creditsSpent, "credit");
        console.log(`gate ${verdict} in ${seconds} s, ${spent}: ${stages}`);
        await annotate();
        return r.exitCode;
      }),
    );
}
