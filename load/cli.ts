// `plumbline load`: a load run against a target, judged by thresholds; `plumbline load compare`: the same
// scenario against the plumbline mock, Prism and a bare Fastify route.
import { parseArgs } from "node:util";
import { COMPARE_HELP, compareCommand } from "./compare/compare-cli.ts";
import { progressLine, renderSummary } from "./render-summary.ts";
import { runLoad } from "./run-load.ts";
import { listScenarios, readScenario } from "./scenario-file.ts";
import { needsFixture } from "./scenario-vars.ts";

export const LOAD_HELP = `Usage: plumbline load --target URL --api-key KEY [--scenario NAME] [--duration S] [--warmup S]
                      [--connections N] [--rate R] [--thresholds FILE|NAME] [--fixture-url URL] [--baseline FILE]
                      [--report-dir DIR | --no-report] [--allow-remote] [--seed N]
                      [--rate-limit auto|N[,operation=M] | --ignore-rate-limits] [--max-credits N]
       plumbline load --list
       plumbline load export --scenario NAME --target URL --format artillery|k6 [--out DIR] …   (--help)
       plumbline load account --before | --report FILE --target URL --api-key KEY …           (--help)
       plumbline load compare [--scenario NAME] [--duration S] [--connections N] [--rounds N] [--report-dir DIR]

  --target URL        base URL of the API under load; loopback only unless --allow-remote
  --api-key KEY       a funded key (or $PLUMBLINE_API_KEY); a run spends real credits: give the mock plenty
                      (plumbline mock --key KEY:1000000000 --rate-limit 0)
  --scenario NAME     a file of load/scenarios/ (default mixed) or a path; --list shows them
  --duration S        measured seconds, 1..600 (default 10); answers are awaited at most 10 s more
  --warmup S          unmeasured seconds first, 0..60 (default 2; its charges still count for the accounting)
  --connections N     closed loop: concurrent connections (default 10); open loop: the most sockets used
  --rate R            open loop: R arrivals per second on a fixed schedule, latency measured from each
                      scheduled arrival (coordinated omission shows instead of hiding)
  --thresholds FILE   budgets: a path, or a name in load/thresholds/ (default mock; reference for the reference)
  --fixture-url URL   a site the target can fetch, filled into {{fixture}} in scenario bodies; the reference
                      scenario needs one (plumbline conform serve-fixtures serves it on 127.0.0.1:4020)
  --baseline FILE     an earlier load.json: fail on a regression beyond the file's baseline.maxRegressionPercent
  --report-dir DIR    default reports/load/<timestamp>: load.json and report.html
  --rate-limit auto|N[,operation=M]
                      the target's limits: auto (default) reads the RateLimit-Policy / RateLimit headers it sends;
                      N[,screenshot=M] states them (requests per 60 s: the account's, an operation's own) for a
                      target that advertises none. The load is paced under them: an open loop at 90% of the rate the
                      account's policy allows (below --rate if lower), an arrival that would exceed a window held
                      back (not sent, reported), a 429 carrying Retry-After and the RateLimit headers counted as
                      throttling (reported, not an error), the run's own /usage reads waiting out Retry-After. The
                      report says what rate the limits allowed and which thresholds could not be judged at it
  --ignore-rate-limits
                      no pacing, a 429 is an error (the old behaviour): for a target whose operator lifted the
                      limits for the test key, or the mock and the reference with --rate-limit 0
  --max-credits N     the most the run may spend: a paid request that could take it past N is held back

Against the reference (it fetches real pages: point it at a fixture site, never the open web):
  plumbline conform serve-fixtures &
  plumbline reference --key LOAD:100000000 --rate-limit 0 --allow-private-network &
  plumbline load --target http://127.0.0.1:8080 --api-key LOAD --scenario reference \\
                 --fixture-url http://127.0.0.1:4020 --thresholds reference

Exit codes: 0 every threshold holds (those the limits' rate cannot judge are skipped, and said), 1 a threshold,
the credit accounting or the baseline broke (named),
2 the run could not proceed (bad arguments, a remote target without --allow-remote, unreachable target,
refused key, a scenario or thresholds file that does not check, {{fixture}} without --fixture-url).

\`plumbline load export\` writes the same scenario and thresholds as an Artillery or k6 script, for load from many
machines; \`plumbline load account\` checks the credits of such a run (docs/load-export.md).

${COMPARE_HELP}`;

function num(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

export async function loadCommand(argv: string[]): Promise<number> {
  if (argv[0] === "compare") return compareCommand(argv.slice(1));
  // the export bundles its runtime with esbuild: loaded only when asked for
  if (argv[0] === "export") return (await import("./export/export-cli.ts")).exportCommand(argv.slice(1));
  if (argv[0] === "account") return (await import("./export/export-cli.ts")).accountCommand(argv.slice(1));
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string" },
      "api-key": { type: "string" },
      scenario: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      rate: { type: "string" },
      thresholds: { type: "string" },
      "fixture-url": { type: "string" },
      baseline: { type: "string" },
      "report-dir": { type: "string" },
      "no-report": { type: "boolean", default: false },
      "allow-remote": { type: "boolean", default: false },
      seed: { type: "string" },
      "rate-limit": { type: "string" },
      "ignore-rate-limits": { type: "boolean", default: false },
      "max-credits": { type: "string" },
      list: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(LOAD_HELP);
    return 0;
  }
  if (values.list) {
    for (const name of listScenarios()) {
      const s = readScenario(name);
      const fixture = s.ok && needsFixture(s.scenario) ? " (needs --fixture-url)" : "";
      console.log(`${name.padEnd(18)} ${s.ok ? s.scenario.description : s.error}${fixture}`);
    }
    return 0;
  }
  if (!values.target) {
    console.error(`plumbline load: --target is required\n\n${LOAD_HELP}`);
    return 2;
  }
  const durationSeconds = num(values.duration) ?? 10;
  const run = await runLoad({
    target: values.target,
    apiKey: values["api-key"] ?? process.env.PLUMBLINE_API_KEY ?? "",
    scenario: values.scenario,
    durationSeconds,
    warmupSeconds: num(values.warmup),
    connections: num(values.connections),
    rate: num(values.rate),
    thresholds: values.thresholds,
    fixtureUrl: values["fixture-url"],
    baseline: values.baseline,
    reportDir: values["no-report"] ? null : values["report-dir"],
    allowRemote: values["allow-remote"],
    seed: num(values.seed),
    rateLimit: values["rate-limit"],
    ignoreRateLimits: values["ignore-rate-limits"],
    maxCredits: num(values["max-credits"]),
    onWait: (line) => process.stderr.write(`${line}\n`),
    onProgress: (p) => process.stderr.write(`${progressLine(p, durationSeconds)}\n`),
  });
  if (!run.ok) {
    console.error(`plumbline load: ${run.error}`);
    return run.exitCode;
  }
  console.log(renderSummary(run.report, run.files));
  return run.exitCode;
}
