// The actions of `plumbline load export` and `plumbline load account` (declared in load/cli.ts): run the export or
// the account step and say what it did.
import { type LoadAccountOptions, runLoadAccount } from "./load-account.ts";
import { type LoadExportOptions, runLoadExport } from "./run-export.ts";

export async function exportScripts(options: LoadExportOptions): Promise<number> {
  const r = await runLoadExport(options);
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
  const engine = options.format === "artillery" ? "artillery" : "k6";
  const expressed = checks.checks.filter((c) => (engine === "artillery" ? c.artillery : c.k6));
  console.log(`thresholds: ${expressed.length} as ${engine === "artillery" ? "ensure conditions" : "k6 thresholds"}`);
  for (const c of checks.checks.filter((c) => !expressed.includes(c)))
    console.log(`  not expressed: ${c.key}: ${c.expression} (${c.note})`);
  for (const d of checks.dropped) console.log(`  not exported: ${d.key}: ${d.expression} (${d.reason})`);
  return 0;
}

export async function accountStep(options: Omit<LoadAccountOptions, "onWait">): Promise<number> {
  const r = await runLoadAccount({ ...options, onWait: (line) => process.stderr.write(`${line}\n`) });
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
