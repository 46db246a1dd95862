// `plumbline conform`: the conformance suite against a target, and `plumbline conform serve-fixtures`.
import { parseArgs } from "node:util";
import { checkOperations } from "./plan.ts";
import { CHECKS } from "./registry.ts";
import { textSummary } from "./report/text-summary.ts";
import { loadContracts, runConformance } from "./run-conformance.ts";
import type { ProfileName } from "./types.ts";

export const CONFORM_HELP = `Usage: plumbline conform --target URL --api-key KEY [--broke-api-key KEY]
                         [--payment-method test --payment-key KEY]
                         [--profile strict|lenient|alt-bounds] [--spec FILE] [--only IDS] [--skip IDS] [--include IDS]
                         [--operations IDS] [--report-dir DIR | --no-report] [--max-credits N]
                         [--fixture-url URL --fixture-manifest FILE [--fixture-log FILE]] [--timeout S]
                         [--oauth-user LOGIN --oauth-password PASSWORD] [--rate-limit auto|N[,screenshot=M]]
                         [--allow-skipped KINDS]
       plumbline conform --list
       plumbline conform serve-fixtures [--host 127.0.0.1] [--port 4020] [--manifest FILE] [--log FILE]
       plumbline conform fixtures export DIR --base-url URL [--no-sitemap-url URL] [--conventional-url URL]
       plumbline conform coverage [--write | --check]

  --api-key KEY        a funded account (or $PLUMBLINE_API_KEY); --broke-api-key: one with zero credits, for the
                       402 checks (or $PLUMBLINE_BROKE_API_KEY; skipped with a warning without it)
  --payment-method test --payment-key KEY
                       pay per request with the local test method and the target's test payment key (or
                       $PLUMBLINE_PAYMENT_KEY) in the payment checks (D-payment-methods); skipped with a warning without
  --profile            strict (default): the project's decisions are enforced; lenient: only the interface text
                       (decision failures become warnings); alt-bounds: report which published bound set the
                       target enforces instead of failing it
  --spec FILE          judge the target by another version of the contract (default spec/openapi.yaml): an older
                       document against a newer implementation tells whether clients of the old contract still
                       work; the checks, bound cases, prices and schemas all come from that document
  --only/--skip IDS    comma-separated check ids (--list shows them); --include IDS adds opt-in checks
                       (rate-limit-retry-after hammers the account, so it runs only when named)
  --operations IDS     comma-separated operationIds of the document (e.g. crawl,sitemap): judge only what a
                       target implements; checks concerning only other operations are skipped ("operation not
                       selected"), checks spanning several cover the selected ones, the plan's cost counts only
                       them. Health, usage and discovery are always covered; deepcrawl brings deepcrawlStatus
  --max-credits N      refuse to start when the plan may spend more than N credits (its cost is printed first)
  --report-dir DIR     default reports/conformance/<timestamp>: conformance.json, junit.xml, report.html
  --fixture-url URL, --fixture-manifest FILE
                       a fixture site the target can fetch, and its manifest (canary tokens, origins): a hosted
                       export (fixtures export DIR --base-url URL → DIR/manifest.json) for a deployment, or
                       serve-fixtures --host 0.0.0.0 --manifest FILE on a network the target shares. Default: the run
                       serves the site on 127.0.0.1, which only a local target started with --allow-private-network
                       (plumbline reference --allow-private-network) can read
  --fixture-log FILE   the fixture host's request log (one URL or Common Log Format line per request; serve-fixtures
                       --log FILE), for sitemap-no-page-content on a site the run does not serve
  --allow-skipped KINDS
                       comma-separated kinds of missing precondition whose skipped checks do not fail the run:
                       fixture-unreachable (the target cannot read the fixture site), fixture-manifest (no manifest,
                       or one the site does not match), fixture-incomplete (an export without its other origins or a
                       request log), broke-key, payment-key, oauth-account. Without it such skips fail the run (exit 1),
                       except against a synthetic target (the mock: the canary came back without its token), where
                       they are printed. Every skip is counted by kind in the summary line and the JUnit file
  --timeout S          seconds a deepcrawl task may take to complete (default 120)
  --rate-limit auto|N[,screenshot=M]
                       the target's limits per 60 s window (D-rate-limits): auto (default) learns them from the
                       RateLimit headers it sends; N[,operation=M] states them for a target that advertises none.
                       The suite paces itself below them instead of drawing 429s
  --oauth-user LOGIN, --oauth-password PASSWORD
                       an account of the target's sign-in page (or $PLUMBLINE_OAUTH_USER, $PLUMBLINE_OAUTH_PASSWORD):
                       the OAuth checks sign in and consent with it in headless Chromium ($PLUMBLINE_CHROMIUM,
                       else /usr/bin/chromium); without it they are skipped where a person must consent
  coverage             the interface's statements and the checks covering each (conformance/README.md);
                       --write updates the README's table, --check fails when it is stale

Exit codes: 0 every check passed (skips allowed as above), 1 a check failed or checks were skipped for a missing
precondition not allowed, 2 the run could not proceed (unreachable target, bad arguments or an unknown operation
id, a refused key, a plan over --max-credits, a manifest that does not read).`;

const list = (v: string | undefined) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

function number(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} takes a number >= 0, not "${v}"`);
  return n;
}

export async function conformCommand(argv: string[]): Promise<number> {
  if (argv[0] === "serve-fixtures") {
    const { serveFixturesCommand } = await import("./fixtures/serve-fixtures.ts");
    return serveFixturesCommand(argv.slice(1));
  }
  if (argv[0] === "fixtures") {
    const { fixturesCommand } = await import("./fixtures/serve-fixtures.ts");
    return fixturesCommand(argv.slice(1));
  }
  if (argv[0] === "coverage") {
    const { coverageCommand } = await import("./coverage-command.ts");
    return coverageCommand(argv.slice(1));
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string" },
      "api-key": { type: "string" },
      "broke-api-key": { type: "string" },
      "payment-method": { type: "string" },
      "payment-key": { type: "string" },
      profile: { type: "string", default: "strict" },
      spec: { type: "string" },
      only: { type: "string" },
      skip: { type: "string" },
      include: { type: "string" },
      operations: { type: "string" },
      "report-dir": { type: "string" },
      "no-report": { type: "boolean", default: false },
      "max-credits": { type: "string" },
      "fixture-url": { type: "string" },
      "fixture-manifest": { type: "string" },
      "fixture-log": { type: "string" },
      "allow-skipped": { type: "string" },
      timeout: { type: "string" },
      "rate-limit": { type: "string" },
      "oauth-user": { type: "string" },
      "oauth-password": { type: "string" },
      list: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(CONFORM_HELP);
    return 0;
  }
  if (values.list) {
    const { contract, altContract: alt } = await loadContracts(values.spec);
    for (const c of CHECKS) {
      const basis = c.basis.kind === "contract" ? "contract" : c.basis.kind === "client" ? "client" : c.basis.decision;
      const concerned = checkOperations(c, contract, alt);
      const ops = !concerned
        ? "(platform)"
        : concerned.length > 3
          ? `${concerned.length} operations`
          : concerned.join(",");
      console.log(
        `${c.id.padEnd(34)} ${c.severity.padEnd(8)} ${basis.padEnd(26)} ${ops.padEnd(24)} ${c.optIn ? "opt-in " : ""}§ ${c.section}`,
      );
    }
    return 0;
  }
  const apiKey = values["api-key"] ?? process.env.PLUMBLINE_API_KEY;
  if (!values.target || !apiKey) {
    console.error(`plumbline conform: --target and --api-key are required\n\n${CONFORM_HELP}`);
    return 2;
  }
  const paymentMethod = values["payment-method"];
  const paymentKey = values["payment-key"] ?? process.env.PLUMBLINE_PAYMENT_KEY;
  if (paymentMethod !== undefined && (paymentMethod !== "test" || !paymentKey)) {
    console.error("plumbline conform: --payment-method takes test, with --payment-key KEY (the target's test key)");
    return 2;
  }
  const result = await runConformance({
    paymentMethod,
    paymentKey,
    target: values.target,
    apiKey,
    brokeApiKey: values["broke-api-key"] ?? process.env.PLUMBLINE_BROKE_API_KEY,
    profile: values.profile as ProfileName,
    spec: values.spec,
    only: list(values.only),
    skip: list(values.skip),
    include: list(values.include),
    operations: list(values.operations),
    reportDir: values["no-report"] ? null : values["report-dir"],
    maxCredits: number("max-credits", values["max-credits"]),
    fixtureUrl: values["fixture-url"],
    fixtureManifest: values["fixture-manifest"],
    fixtureLog: values["fixture-log"],
    allowSkipped: list(values["allow-skipped"]),
    timeoutSeconds: number("timeout", values.timeout),
    rateLimit: values["rate-limit"],
    oauthUser: values["oauth-user"],
    oauthPassword: values["oauth-password"],
    onProgress: (line) => console.log(line),
  });
  if (result.exitCode === 2) console.error(`plumbline conform: could not run: ${result.error}`);
  else console.log(textSummary(result));
  return result.exitCode;
}
