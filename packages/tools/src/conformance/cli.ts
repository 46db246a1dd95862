// `plumbline conform`: the conformance suite against a target, and its fixture site (`serve-fixtures`, `fixtures
// export`) and statement coverage (`coverage`). Declarations only: the suite, the contract and the fixture server
// load once the arguments are good.
import {
  Command,
  commaList,
  decimal,
  exits,
  literalOption,
  Option,
  requireOptions,
  usageError,
  wholeNumber,
} from "@plumbline-kit/cli/command-kit";
import { WRAPPED_ARGUMENT, WRAPPED_USAGE, wrappedCommand } from "@plumbline-kit/cli/wrapped-command";
import {
  allowSkippedOption,
  apiKeyOption,
  brokeApiKeyOption,
  contractOption,
  fixtureLogOption,
  fixtureManifestOption,
  fixtureUrlOption,
  maxCreditsOption,
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
import { CONFORMANCE_PROFILES } from "./types.ts";

function serveFixturesCommand() {
  return new Command("serve-fixtures")
    .summary("serve the fixture site the semantic checks crawl")
    .description(
      "Serve the fixture site on three consecutive ports (main; an origin without sitemap; one whose sitemap is only at /sitemap.xml), until SIGINT or SIGTERM. For a target on another machine, listen where it can reach (--host 0.0.0.0) and give the run the address the target uses: conform --fixture-url http://HOST:4020 --fixture-manifest FILE.",
    )
    .option("--host <address>", "the address to listen on", "127.0.0.1")
    .option(
      "--port <port>",
      "the main origin's port; the site uses it and the next two (0: three free ports)",
      wholeNumber(0, 65533),
      4020,
    )
    .option(
      "--manifest <file>",
      "write the manifest the run needs (canary pages and their tokens, keyed by a secret of this server): keep the file from the target",
    )
    .option("--log <file>", "append each request's URL to FILE (conform --fixture-log FILE: sitemap-no-page-content)")
    .argument(
      WRAPPED_ARGUMENT,
      "after --: a command to run once the site listens, its address in $PLUMBLINE_FIXTURE_URL; the site is closed when it ends and the exit code is the command's (a CI step: -- npx plumbline reference … -- npx plumbline gate …)",
    )
    .usage(WRAPPED_USAGE)
    .action(
      exits(async (operands, opts, cmd) => {
        const { serveFixtures } = await import("./fixtures/serve-fixtures.ts");
        return serveFixtures({ ...opts, command: wrappedCommand(cmd, operands) });
      }),
    );
}

function fixturesCommand() {
  const fixtures = new Command("fixtures")
    .summary("the fixture site as static files")
    .description("The fixture site as files, for a static host the target can reach.");
  fixtures
    .command("export")
    .summary("write the fixture site as static files, one folder per origin, and its manifest")
    .description(
      "Write the fixture site as static files, one folder per origin, each to publish at the root of its address (robots.txt and sitemaps are looked up per origin): DIR/main at --base-url, DIR/no-sitemap at --no-sitemap-url (sitemap-fallback-links needs it), DIR/conventional at --conventional-url (sitemap-conventional-path and sitemap-no-page-content need it), and DIR/manifest.json for the run, never published: conform --fixture-url URL --fixture-manifest DIR/manifest.json.",
    )
    .argument("<dir>", "the folder to write (created)")
    .addOption(new Option("--base-url <url>", "where DIR/main will be served").makeOptionMandatory())
    .addOption(literalOption("--no-sitemap-url <url>", "where DIR/no-sitemap will be served (optional)"))
    .option("--conventional-url <url>", "where DIR/conventional will be served (optional)")
    .option(
      "--canaries <n>",
      "canary pages with random tokens; each run reads one at random",
      wholeNumber(1, 10_000),
      64,
    )
    .addHelpText(
      "after",
      "\nA static host answers 404 for a missing page and cannot answer 410, so crawl-target-status judges 404 only;\nsitemap-no-page-content needs the host's access log (conform --fixture-log FILE).",
    )
    .action(
      exits(async (dir, opts, cmd) => {
        const { exportFixtureSite } = await import("./fixtures/serve-fixtures.ts");
        const noSitemapUrl = cmd.getOptionValue("noSitemapUrl") as string | undefined;
        return exportFixtureSite(dir, { ...opts, noSitemapUrl });
      }),
    );
  return fixtures;
}

function coverageCommand() {
  return new Command("coverage")
    .summary("the interface's statements and the checks covering each")
    .description(
      "Print the interface's statements and the checks covering each (the table of conformance/README.md, rendered from statement-coverage.ts).",
    )
    .addOption(new Option("--write", "write the table into conformance/README.md").conflicts("check"))
    .option("--check", "exit 1 when the README's table is stale")
    .action(
      exits(async (opts) => {
        const { coverageTable } = await import("./coverage-command.ts");
        return coverageTable(opts);
      }),
    );
}

export function conformCommand() {
  const conform = new Command("conform")
    .description(
      "Run the conformance suite against a target: a registry of checks, each with an id, a severity and the interface section it enforces; prints the plan's credit cost first, then writes JSON, JUnit XML and an HTML page (docs/conformance.md).",
    )
    .addOption(targetOption().makeOptionMandatory(false))
    .addOption(apiKeyOption().makeOptionMandatory(false))
    .addOption(brokeApiKeyOption())
    .addOption(paymentMethodOption("the payment checks"))
    .addOption(paymentKeyOption())
    .addOption(
      new Option(
        "--profile <name>",
        "strict: the project's decisions are enforced; lenient: only the interface text (decision failures become warnings); alt-bounds: report which published bound set the target enforces instead of failing it",
      )
        .choices(CONFORMANCE_PROFILES)
        .default("strict" as const),
    )
    .addOption(contractOption("the target is judged by").conflicts("spec"))
    .option(
      "--spec <file>",
      "judge the target by another version of the contract (default spec/openapi.yaml): an older document against a newer implementation tells whether clients of the old contract still work; the checks, bound cases, prices and schemas all come from that document (docs/spec-diff.md)",
    )
    .option("--only <ids>", "comma-separated check ids to run (--list shows them)", commaList)
    .option("--skip <ids>", "comma-separated check ids not to run", commaList)
    .option(
      "--include <ids>",
      "opt-in checks to add (a check marked opt-in in --list runs only when named; none is at present: the 429 check runs by default)",
      commaList,
    )
    .addOption(
      operationsOption(
        "judge only what a target implements; checks concerning only other operations are skipped (operation not selected), checks spanning several cover the selected ones, the plan's cost counts only them. Health, usage and discovery are always covered; deepcrawl brings deepcrawlStatus",
      ),
    )
    .option("--list", "list the checks (id, severity, basis, operations, section) and exit")
    .addOption(
      maxCreditsOption("refuse to start when the plan may spend more than N credits (its cost is printed first)"),
    )
    .addOption(
      fixtureUrlOption(
        "a fixture site the target can fetch, with its --fixture-manifest: a hosted export for a deployment, or serve-fixtures --host 0.0.0.0 --manifest FILE on a network the target shares. Default: the run serves the site on 127.0.0.1, which only a local target started with --allow-private-network can read",
      ),
    )
    .addOption(fixtureManifestOption())
    .addOption(fixtureLogOption())
    .addOption(
      allowSkippedOption(
        "the run; without it such skips fail the run (exit 1), except against a synthetic target (the mock: the canary came back without its token), where they are printed",
      ),
    )
    .option("--timeout <s>", "seconds a deepcrawl task may take to complete (default 120)", decimal(1))
    .addOption(rateLimitOption("The suite paces itself below them instead of drawing 429s"))
    .addOption(oauthUserOption("the OAuth checks"))
    .addOption(oauthPasswordOption())
    .addOption(
      reportDirOption("where conformance.json, junit.xml and report.html go (default reports/conformance/<timestamp>)"),
    )
    .addOption(noReportOption())
    .addOption(reporterOption("failing check, warning and unmet precondition"))
    .addHelpText(
      "after",
      `
Exit codes: 0 every check passed (skips allowed as above), 1 a check failed or checks were skipped for a
missing precondition not allowed, 2 the run could not proceed (unreachable target, bad arguments or an
unknown operation id, a refused key, a plan over --max-credits, a manifest that does not read).`,
    )
    .action(
      exits(async (opts, cmd) => {
        if (opts.list) {
          const { listChecks } = await import("./list-checks.ts");
          for (const line of await listChecks(opts.spec, opts.contract)) console.log(line);
          return 0;
        }
        requireOptions(cmd, ["target", "apiKey"]);
        if (opts.paymentMethod !== undefined && !opts.paymentKey)
          usageError(cmd, "--payment-method test needs --payment-key KEY (the target's test key)");
        const { runConformance } = await import("./run-conformance.ts");
        const { textSummary } = await import("./report/text-summary.ts");
        const result = await runConformance({
          target: opts.target as string,
          apiKey: opts.apiKey as string,
          brokeApiKey: opts.brokeApiKey,
          paymentMethod: opts.paymentMethod,
          paymentKey: opts.paymentKey,
          profile: opts.profile,
          spec: opts.spec,
          contractVersion: opts.contract,
          only: opts.only ?? [],
          skip: opts.skip ?? [],
          include: opts.include ?? [],
          operations: opts.operations ?? [],
          reportDir: opts.report ? opts.reportDir : null,
          maxCredits: opts.maxCredits,
          fixtureUrl: opts.fixtureUrl,
          fixtureManifest: opts.fixtureManifest,
          fixtureLog: opts.fixtureLog,
          allowSkipped: opts.allowSkipped ?? [],
          timeoutSeconds: opts.timeout,
          rateLimit: opts.rateLimit,
          oauthUser: opts.oauthUser,
          oauthPassword: opts.oauthPassword,
          onProgress: (line) => console.log(line),
        });
        if (result.exitCode === 2) console.error(`plumbline conform: could not run: ${result.error}`);
        else console.log(textSummary(result));
        const { chosenReporter, githubAnnotation } = await import("@plumbline-kit/contract/report/github");
        if (chosenReporter(opts.reporter, process.env) === "github") {
          const { conformanceAnnotations } = await import("./report/github-annotations.ts");
          for (const a of conformanceAnnotations(result)) console.log(githubAnnotation(a));
        }
        return result.exitCode;
      }),
    );
  conform.addCommand(serveFixturesCommand());
  conform.addCommand(fixturesCommand());
  conform.addCommand(coverageCommand());
  return conform;
}
