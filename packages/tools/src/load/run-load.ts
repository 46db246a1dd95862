// runLoad(): one load run, start to verdict. Checks everything it can before sending traffic (target, scenario
// against the contract, thresholds, baseline, the key), runs the driver the scenario and mode call for, then
// judges: thresholds, credit accounting, baseline. Could-not-run is a value with exit code 2, never a throw.

import { loadContract } from "@plumbline-kit/contract";
import { probeTarget } from "@plumbline-kit/contract/http/target-probe";
import { incomparable, readBaseline } from "./baseline-compare.ts";
import { runClosedLoop } from "./closed-loop.ts";
import { checkAccounting, readBalance } from "./credit-accounting.ts";
import { createCreditCap } from "./credit-cap.ts";
import { runDeepcrawlFlows } from "./deepcrawl-flow.ts";
import { createSender } from "./http-send.ts";
import { judgeRun } from "./judge-run.ts";
import type { ResolvedOptions } from "./load-options.ts";
import { type LoadOptions, resolveOptions } from "./load-options.ts";
import { runOpenLoop } from "./open-loop.ts";
import {
  createLimiter,
  type Limiter,
  type LoadRateLimitSetting,
  PACE_SHARE,
  parseLoadRateLimit,
} from "./rate-limits.ts";
import { defaultReportDir, writeLoadReport } from "./report/write-report.ts";
import { buildPlan } from "./request-plan.ts";
import { SampleRecorder } from "./sample-recorder.ts";
import { readScenario } from "./scenario-file.ts";
import { runSetup } from "./scenario-setup.ts";
import { FIXTURE_MISSING, FIXTURE_VAR, needsFixture } from "./scenario-vars.ts";
import { checkTarget } from "./target-guard.ts";
import { DEFAULT_THRESHOLDS, NO_THRESHOLDS, readThresholdSet } from "./threshold-file.ts";
import type { LoadReport, RateLimitReport } from "./types.ts";

export type LoadRun =
  | { ok: true; exitCode: 0 | 1; report: LoadReport; files: { json: string; html: string } | null }
  | { ok: false; exitCode: 2; error: string };

const cannot = (error: string): LoadRun => ({ ok: false, exitCode: 2, error });
const round2 = (n: number) => Math.round(n * 100) / 100;

/** How the limits shaped the run: the rate they allowed, what was held back or throttled, what could not be judged. */
function limitReport(
  setting: LoadRateLimitSetting,
  limiter: Limiter | undefined,
  requested: ResolvedOptions,
  pacedRate: number | null,
  report: LoadReport,
  holds: { limits: number; credits: number },
): RateLimitReport {
  const policies = limiter?.policies() ?? [];
  const allowed = limiter?.accountRate() ?? null;
  const source =
    setting === "ignore" ? "ignored" : setting !== "auto" ? "stated" : policies.length ? "advertised" : "none";
  const unjudged = report.thresholds
    .filter((t) => t.status === "skipped" && t.note?.startsWith("cannot be judged"))
    .map((t) => `${t.key}: ${t.expression} (${t.note})`);
  const throttled = report.overall.throttled;
  const limits = policies.map((p) => `${p.quota} per ${p.windowSeconds} s (${p.policy})`).join(", ");
  const detail =
    source === "ignored"
      ? "rate limits ignored (--ignore-rate-limits): not paced; a 429 counts as an error"
      : source === "none"
        ? "the target advertises no rate limits (no RateLimit-Policy header): the run was not paced"
        : `the ${source === "stated" ? "stated" : "advertised"} limits (${limits}) allow ${round2(allowed ?? 0)} requests/s; the run was paced at ${pacedRate} arrivals/s${requested.rate === null ? " (an open loop instead of the closed loop)" : requested.rate !== pacedRate ? ` (under the ${requested.rate}/s asked for)` : ""}: ${report.overall.requests} answers, ${throttled} throttled (429 within the policy), ${holds.limits} arrivals held back for a full window${unjudged.length ? `; ${unjudged.length} threshold${unjudged.length === 1 ? "" : "s"} could not be judged at that rate` : ""}`;
  return {
    source,
    policies,
    allowedRate: allowed === null ? null : round2(allowed),
    pacedRate: source === "advertised" || source === "stated" ? pacedRate : null,
    throttled,
    heldBack: holds.limits,
    unjudged,
    detail,
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadRun> {
  const resolved = resolveOptions(options);
  if (!resolved.ok) return cannot(resolved.error);
  const o = resolved.value;
  const target = checkTarget(options.target, options.allowRemote ?? false);
  if (!target.ok) return cannot(target.error);
  const url = target.url;
  const contract = await loadContract({ version: options.contractVersion });
  const read = readScenario(o.scenario);
  if (!read.ok) return cannot(read.error);
  const scenario = read.scenario;
  if (o.fixture === null && needsFixture(scenario)) return cannot(`scenario ${scenario.name}: ${FIXTURE_MISSING}`);
  const opIds = contract.contractOperations.map((op) => op.operationId);
  const thresholds =
    options.thresholds === null
      ? { ok: true as const, set: NO_THRESHOLDS }
      : readThresholdSet(options.thresholds ?? DEFAULT_THRESHOLDS, scenario.name, opIds);
  if (!thresholds.ok) return cannot(thresholds.error);
  const baseline = options.baseline ? readBaseline(options.baseline) : null;
  if (baseline && !baseline.ok) return cannot(baseline.error);
  let setting: LoadRateLimitSetting;
  try {
    setting = options.ignoreRateLimits ? "ignore" : parseLoadRateLimit(options.rateLimit ?? "auto");
  } catch (err) {
    return cannot((err as Error).message);
  }
  if (options.ignoreRateLimits && options.rateLimit !== undefined)
    return cannot("--rate-limit and --ignore-rate-limits exclude each other");

  // a down target, or one that is not this API (a static site, another service), is refused before any load
  const probe = await probeTarget(url.href);
  if (!probe.ok) return cannot(probe.message);
  const control = createSender(url, 2);
  try {
    const start = await readBalance(control, options.apiKey, { onWait: options.onWait });
    if (!start.ok && start.status === null) return cannot(`cannot reach ${url.origin}: ${start.error}`);
    if (!start.ok && (start.status === 401 || start.status === 403))
      return cannot(`the target refused the API key (${start.error})`);
    // the target's limits, from the headers of that first read (or as stated): the run is paced under them
    const limiter = setting === "ignore" ? undefined : createLimiter(setting);
    if (limiter && start.headers) limiter.learn("/usage", 200, start.headers);
    const allowed = limiter?.accountRate() ?? null;
    const pacedRate =
      allowed === null ? o.rate : round2(Math.min(o.rate ?? Number.POSITIVE_INFINITY, allowed * PACE_SHARE));
    const run: ResolvedOptions = { ...o, rate: pacedRate };
    const mode = run.rate === null ? "closed" : "open";
    const mismatch = baseline?.ok ? incomparable(baseline.report, { scenario, mode }) : null;
    if (mismatch) return cannot(`--baseline: ${mismatch}`);
    const vars: Record<string, string> = o.fixture === null ? {} : { [FIXTURE_VAR]: o.fixture };
    // setup steps are not measured traffic, but what they spend counts for the accounting check
    const setupLedger = new SampleRecorder();
    const setup = await runSetup(scenario.setup, {
      contract,
      sender: control,
      apiKey: options.apiKey,
      recorder: setupLedger,
      vars,
    });
    if (!setup.ok) return cannot(setup.error);
    const plan =
      scenario.kind === "requests"
        ? buildPlan(scenario.requests, contract, {
            apiKey: options.apiKey,
            vars: setup.vars,
            tagTemplates: options.tagTemplates,
          })
        : null;
    if (plan && !plan.ok) return cannot(`scenario ${scenario.name}: ${plan.error}`);

    const startedAt = new Date();
    const measured = new SampleRecorder();
    measured.charged(setupLedger.countedCredits);
    const ticker = options.onProgress ? setInterval(() => options.onProgress?.(measured.progress()), 1000) : undefined;
    const holds = { limits: 0, credits: 0 };
    const creditCap =
      options.maxCredits === undefined
        ? undefined
        : createCreditCap(Math.max(0, options.maxCredits - setupLedger.countedCredits));
    const input = {
      url,
      contract,
      recorder: measured,
      durationSeconds: o.durationSeconds,
      warmupSeconds: o.warmupSeconds,
      connections: o.connections,
      seed: o.seed,
      limiter,
      creditCap,
      holds,
    };
    try {
      if (plan?.ok && run.rate !== null) await runOpenLoop({ ...input, plan: plan.plan, rate: run.rate });
      else if (plan?.ok) await runClosedLoop({ ...input, plan: plan.plan });
      else {
        const flows = await runDeepcrawlFlows({
          ...input,
          apiKey: options.apiKey,
          flow: scenario.flow ?? {},
          vars,
          rate: run.rate,
        });
        if (!flows.ok) return cannot(flows.error);
      }
    } finally {
      clearInterval(ticker);
    }

    const accounting = options.creditAccounting ?? thresholds.set.creditAccounting;
    const credits = accounting
      ? checkAccounting({
          start,
          end: start.ok ? await readBalance(control, options.apiKey, { onWait: options.onWait }) : null,
          counted: measured.countedCredits,
          unresolved: measured.unresolved,
          unresolvedCredits: measured.unresolvedCredits,
        })
      : { checked: false, pass: true, detail: "not checked: creditAccounting is off" };
    const paced = allowed !== null;
    const report = judgeRun({
      recorder: measured,
      startedAt,
      target: url.href,
      scenario,
      options: run,
      credits,
      thresholds: thresholds.set,
      baseline: baseline?.ok ? { report: baseline.report, file: options.baseline as string } : null,
      limitedRate: paced ? pacedRate : null,
    });
    report.rateLimits = limitReport(setting, limiter, o, pacedRate, report, holds);
    if (creditCap) report.creditCap = { cap: options.maxCredits as number, heldBack: holds.credits };
    const files =
      options.reportDir === null ? null : writeLoadReport(report, options.reportDir ?? defaultReportDir(startedAt));
    return { ok: true, exitCode: report.pass ? 0 : 1, report, files };
  } finally {
    await control.close();
  }
}
