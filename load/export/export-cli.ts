// `plumbline load export` and `plumbline load account`: their options (one parseArgs object each) and help texts.
import { parseArgs } from "node:util";
import { DEFAULT_ACCOUNT_STATE, runLoadAccount } from "./load-account.ts";
import {
  API_KEY_ENV,
  DEFAULT_EXPORT_DIR,
  DEFAULT_EXPORT_RATE,
  type ExportFormat,
  runLoadExport,
} from "./run-export.ts";

export const EXPORT_HELP = `Usage: plumbline load export --scenario NAME --target URL --format artillery|k6 [--out DIR]
                             [--thresholds FILE|NAME] [--fixture-url URL] [--rate R] [--duration S] [--warmup S]
                             [--rate-limit auto|N[,operation=M] | --ignore-rate-limits] [--api-key KEY]

A plumbline scenario, its thresholds and the target's limits as a script for a distributed load engine:
  artillery  NAME.artillery.yml and its processor NAME.processor.mjs: one Artillery scenario per request (weights
             kept), the deepcrawl flow polled to its zip, the thresholds as ensure conditions
  k6         NAME.k6.js: options.scenarios (an arrival-rate scenario) and options.thresholds (not run here)
The API key is read from $${API_KEY_ENV} when the script runs; it is never written into a file.

  --scenario NAME     a file of load/scenarios/ or a path (default mixed)
  --target URL        the API the script loads (Artillery: config.target; artillery run --target overrides it)
  --format F          artillery or k6
  --out DIR           where the files go (default ${DEFAULT_EXPORT_DIR})
  --thresholds FILE   budgets, as plumbline load takes them (default mock; reference for the reference)
  --fixture-url URL   the fixture site filled into {{fixture}} (the reference scenario needs one)
  --rate R            arrivals per second of one load generator (default ${DEFAULT_EXPORT_RATE}; Artillery's --count N and
                      k6-operator's parallelism run N generators: N x R in all; the engines are open-loop: plumbline
                      load's closed loop has no equivalent); a deepcrawl flow is one arrival
  --duration S        measured seconds, 1..600 (default 10)
  --warmup S          a ramp from 1 arrival/s to R first, 0..60 (default 2; not measured; flows have none)
  --rate-limit auto|N[,operation=M]
                      auto (default): with --api-key, the limits the target advertises are read now (one free
                      GET /usage) and the rate capped at 90% of what they allow; without a key the script learns
                      them from its answers. N[,screenshot=M]: stated per 60 s. Either way the script holds back an
                      arrival that would exceed a window and counts a 429 within the policy as throttling
  --ignore-rate-limits
                      not paced, a 429 is an error (limits lifted for the test key)
  --api-key KEY       only to read the target's limits at export (or $${API_KEY_ENV})

Exit codes: 0 written, 2 could not export (bad arguments, a scenario or thresholds file that does not check,
{{fixture}} without --fixture-url, a target whose limits could not be read). docs/load-export.md has the rest.`;

export const ACCOUNT_HELP = `Usage: plumbline load account --before --target URL --api-key KEY [--state FILE]
       plumbline load account --report FILE --target URL --api-key KEY [--state FILE | --start-balance N]

The credit accounting of a run made from an exported script, in two steps around it:
  --before            reads the balance (GET /usage) and records it in the state file
  --report FILE       the engine's JSON report (artillery run --output FILE, or k6 run --summary-export FILE):
                      what the script counted (credits of the successful calls, priced from the spec; paid requests
                      never answered) is checked against the fall of the balance since --before

  --target URL        the API the run loaded
  --api-key KEY       the key the run used (or $${API_KEY_ENV})
  --state FILE        where --before records the balance (default ${DEFAULT_ACCOUNT_STATE})
  --start-balance N   the balance before the run, instead of a state file

Exit codes: 0 the balance fell by exactly what the run's successful calls cost (up to the unanswered ones'
price), 1 it did not (over- or under-charged, named), 2 could not check (no state, a report without the
script's counters, an unreachable target, a refused key).`;

function num(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

export async function exportCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scenario: { type: "string" },
        target: { type: "string" },
        format: { type: "string" },
        out: { type: "string" },
        thresholds: { type: "string" },
        "fixture-url": { type: "string" },
        rate: { type: "string" },
        duration: { type: "string" },
        warmup: { type: "string" },
        "rate-limit": { type: "string" },
        "ignore-rate-limits": { type: "boolean", default: false },
        "api-key": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (err) {
    console.error(`plumbline load export: ${(err as Error).message}\n\n${EXPORT_HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(EXPORT_HELP);
    return 0;
  }
  if (!values.target || !values.format) {
    console.error(`plumbline load export: --target and --format are required\n\n${EXPORT_HELP}`);
    return 2;
  }
  const r = await runLoadExport({
    scenario: values.scenario as string | undefined,
    target: values.target as string,
    format: values.format as ExportFormat,
    outDir: values.out as string | undefined,
    thresholds: values.thresholds as string | undefined,
    fixtureUrl: values["fixture-url"] as string | undefined,
    rate: num(values.rate as string | undefined),
    durationSeconds: num(values.duration as string | undefined),
    warmupSeconds: num(values.warmup as string | undefined),
    rateLimit: values["rate-limit"] as string | undefined,
    ignoreRateLimits: values["ignore-rate-limits"] as boolean,
    apiKey: (values["api-key"] as string | undefined) ?? process.env[API_KEY_ENV],
  });
  if (!r.ok) {
    console.error(`plumbline load export: ${r.error}`);
    return r.exitCode;
  }
  const { plan, checks } = r;
  console.log(`wrote ${r.files.join(", ")}`);
  console.log(
    `${plan.scenario.name}: ${plan.flow ? "deepcrawl flows" : `${plan.templates.length} requests`}, ${plan.phases.warmupSeconds ? `${plan.phases.warmupSeconds} s warm-up + ` : ""}${plan.phases.durationSeconds} s at ${plan.phases.rate}/s`,
  );
  console.log(`rate limits: ${plan.rateLimits.detail}`);
  const engine = values.format === "artillery" ? "artillery" : "k6";
  const expressed = checks.checks.filter((c) => (engine === "artillery" ? c.artillery : c.k6));
  console.log(`thresholds: ${expressed.length} as ${engine === "artillery" ? "ensure conditions" : "k6 thresholds"}`);
  for (const c of checks.checks.filter((c) => !expressed.includes(c)))
    console.log(`  not expressed: ${c.key}: ${c.expression} (${c.note})`);
  for (const d of checks.dropped) console.log(`  not exported: ${d.key}: ${d.expression} (${d.reason})`);
  return 0;
}

export async function accountCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        before: { type: "boolean", default: false },
        report: { type: "string" },
        target: { type: "string" },
        "api-key": { type: "string" },
        state: { type: "string" },
        "start-balance": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (err) {
    console.error(`plumbline load account: ${(err as Error).message}\n\n${ACCOUNT_HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(ACCOUNT_HELP);
    return 0;
  }
  if (!values.target) {
    console.error(`plumbline load account: --target is required\n\n${ACCOUNT_HELP}`);
    return 2;
  }
  const r = await runLoadAccount({
    target: values.target as string,
    apiKey: (values["api-key"] as string | undefined) ?? process.env[API_KEY_ENV] ?? "",
    before: values.before as boolean,
    report: values.report as string | undefined,
    state: values.state as string | undefined,
    startBalance: num(values["start-balance"] as string | undefined),
    onWait: (line) => process.stderr.write(`${line}\n`),
  });
  if (!r.ok) {
    console.error(`plumbline load account: ${r.error}`);
    return r.exitCode;
  }
  if (r.mode === "before") {
    console.log(`balance before the run: ${r.balance} (recorded in ${r.state})`);
    return 0;
  }
  const c = r.reported;
  console.log(`${r.credits.pass ? "PASS" : "FAIL"}  credit accounting: ${r.credits.detail}`);
  console.log(
    `      from the ${c.engine === "artillery" ? "Artillery" : "k6"} report: ${c.throttled} throttled (429 within the policy), ${c.heldBack} held back`,
  );
  return r.exitCode;
}
