// runLoadExport(): `plumbline load export`. A scenario, its thresholds and the target's limits become a script for a
// distributed load engine (Artillery, or k6), written to a folder. Everything is checked before anything is written;
// could-not-export is a value with exit code 2, never a throw. The only traffic: with `--rate-limit auto` and a key,
// one free `GET /usage` to read the limits the target advertises, as `plumbline load` does when it starts.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import { readBalance } from "../credit-accounting.ts";
import { createSender } from "../http-send.ts";
import { MAX_DURATION_SECONDS } from "../load-options.ts";
import { createLimiter, type LoadRateLimitSetting, PACE_SHARE, parseLoadRateLimit } from "../rate-limits.ts";
import { readScenario } from "../scenario-file.ts";
import { FIXTURE_MISSING, fixtureBase, needsFixture } from "../scenario-vars.ts";
import { checkTarget } from "../target-guard.ts";
import { DEFAULT_THRESHOLDS, NO_THRESHOLDS, readThresholdSet } from "../threshold-file.ts";
import { artilleryScript } from "./artillery-script.ts";
import { artilleryProcessorSource, k6Source } from "./bundle.ts";
import { type ExportChecks, translateChecks } from "./export-checks.ts";
import { DEFAULT_EXPORT_DIR, DEFAULT_EXPORT_RATE, EXPORT_FORMATS, type ExportFormat } from "./export-defaults.ts";
import { API_KEY_ENV, buildExportPlan, type ExportPlan, type PlanRateLimits } from "./export-plan.ts";
import { k6Options } from "./k6-options.ts";

export { DEFAULT_EXPORT_DIR, DEFAULT_EXPORT_RATE, EXPORT_FORMATS, type ExportFormat };

export interface LoadExportOptions {
  /** a name in load/scenarios/ or a path (default "mixed") */
  scenario?: string;
  /** the target the script loads (Artillery: `config.target`, overridable with `artillery run --target`) */
  target: string;
  format: ExportFormat;
  /** where the files go (default reports/load-export) */
  outDir?: string;
  /** thresholds file or name (default mock); null: no checks */
  thresholds?: string | null;
  /** the fixture site filled into `{{fixture}}` */
  fixtureUrl?: string;
  /** arrivals (requests, or deepcrawl flows) per second of one load generator (default 10; --count N runs N) */
  rate?: number;
  /** measured seconds (default 10, 1..600) */
  durationSeconds?: number;
  /** warm-up ramp seconds (default 2, 0..60; deepcrawl flows have none) */
  warmupSeconds?: number;
  /** "auto" (default): the limits the target advertises; "N[,operation=M]" stated per 60 s */
  rateLimit?: string;
  /** no pacing, a 429 is an error (limits lifted for the test key) */
  ignoreRateLimits?: boolean;
  /** with rateLimit auto: a key to read the target's advertised limits with (never written into the script) */
  apiKey?: string;
}

export type LoadExport =
  | { ok: true; exitCode: 0; files: string[]; plan: ExportPlan; checks: ExportChecks }
  | { ok: false; exitCode: 2; error: string };

const cannot = (error: string): LoadExport => ({ ok: false, exitCode: 2, error });
const round2 = (n: number) => Math.round(n * 100) / 100;

async function rateLimits(
  setting: LoadRateLimitSetting,
  target: URL,
  apiKey: string | undefined,
): Promise<{ ok: true; value: PlanRateLimits } | { ok: false; error: string }> {
  if (setting === "ignore")
    return {
      ok: true,
      value: {
        setting,
        source: "ignored",
        policies: [],
        allowedRate: null,
        detail: "ignored (--ignore-rate-limits): not paced; a 429 counts as an error",
      },
    };
  const limiter = createLimiter(setting);
  if (setting === "auto" && !apiKey)
    return {
      ok: true,
      value: {
        setting,
        source: "unread",
        policies: [],
        allowedRate: null,
        detail:
          "not read at export (no --api-key): the arrival rate is not capped; the script learns the limits from the RateLimit headers of its answers, holds back what would exceed them and counts a 429 within them as throttling",
      },
    };
  if (setting === "auto") {
    const sender = createSender(target, 1);
    try {
      const read = await readBalance(sender, apiKey as string, { retries: 0 });
      if (!read.ok && read.status === null) return { ok: false, error: `cannot reach ${target.origin}: ${read.error}` };
      if (!read.ok && (read.status === 401 || read.status === 403))
        return { ok: false, error: `the target refused the API key (${read.error})` };
      if (read.headers) limiter.learn("/usage", read.ok ? 200 : (read.status ?? 0), read.headers);
    } finally {
      await sender.close();
    }
  }
  const policies = limiter.policies();
  const allowed = limiter.accountRate();
  const source = setting === "auto" ? (policies.length ? "advertised" : "none") : "stated";
  const list = policies.map((p) => `${p.quota} per ${p.windowSeconds} s (${p.policy})`).join(", ");
  return {
    ok: true,
    value: {
      setting,
      source,
      policies,
      allowedRate: allowed === null ? null : round2(allowed),
      detail:
        allowed === null
          ? "the target advertises no rate limits (no RateLimit-Policy header): not paced; a 429 within a policy it names later still counts as throttling"
          : `the ${source} limits (${list}) allow ${round2(allowed)} requests/s: arrivals capped at ${Math.round(PACE_SHARE * 100)}% of that; the script holds back what would exceed a window and counts a 429 within the policy as throttling, not an error`,
    },
  };
}

export async function runLoadExport(options: LoadExportOptions): Promise<LoadExport> {
  if (!EXPORT_FORMATS.includes(options.format))
    return cannot(`--format takes ${EXPORT_FORMATS.join(" or ")}, not ${options.format}`);
  const durationSeconds = options.durationSeconds ?? 10;
  if (!(durationSeconds >= 1 && durationSeconds <= MAX_DURATION_SECONDS))
    return cannot(`--duration takes 1..${MAX_DURATION_SECONDS} seconds, not ${options.durationSeconds}`);
  const requestedRate = options.rate ?? DEFAULT_EXPORT_RATE;
  if (!(requestedRate > 0 && requestedRate <= 100_000))
    return cannot(`--rate takes 0 < R <= 100000 arrivals per second, not ${options.rate}`);
  let warmupSeconds = options.warmupSeconds ?? 2;
  if (!(warmupSeconds >= 0 && warmupSeconds <= 60))
    return cannot(`--warmup takes 0..60 seconds, not ${options.warmupSeconds}`);
  if (options.ignoreRateLimits && options.rateLimit !== undefined)
    return cannot("--rate-limit and --ignore-rate-limits exclude each other");
  let setting: LoadRateLimitSetting;
  try {
    setting = options.ignoreRateLimits ? "ignore" : parseLoadRateLimit(options.rateLimit ?? "auto");
  } catch (err) {
    return cannot((err as Error).message);
  }
  // a script is not traffic: any http(s) target may be exported (running it is the engine's business)
  const target = checkTarget(options.target, true);
  if (!target.ok) return cannot(target.error);
  const fixture = options.fixtureUrl === undefined ? null : fixtureBase(options.fixtureUrl);
  if (fixture && !fixture.ok) return cannot(fixture.error);
  const read = readScenario(options.scenario ?? "mixed");
  if (!read.ok) return cannot(read.error);
  const scenario = read.scenario;
  if (!fixture && needsFixture(scenario)) return cannot(`scenario ${scenario.name}: ${FIXTURE_MISSING}`);
  if (scenario.kind === "deepcrawl-flow") warmupSeconds = 0;
  const contract = await loadContract();
  const opIds = contract.contractOperations.map((o) => o.operationId);
  const thresholds =
    options.thresholds === null
      ? { ok: true as const, set: NO_THRESHOLDS }
      : readThresholdSet(options.thresholds ?? DEFAULT_THRESHOLDS, scenario.name, opIds);
  if (!thresholds.ok) return cannot(thresholds.error);
  const limits = await rateLimits(setting, target.url, options.apiKey);
  if (!limits.ok) return cannot(limits.error);
  const allowed = limits.value.allowedRate;
  const rate = allowed === null ? requestedRate : round2(Math.min(requestedRate, allowed * PACE_SHARE));
  const plan = buildExportPlan({
    scenario,
    contract,
    target: target.url,
    fixture: fixture?.value ?? null,
    phases: { warmupSeconds, durationSeconds, rate, requestedRate },
    rateLimits: limits.value,
  });
  if (!plan.ok) return cannot(`scenario ${scenario.name}: ${plan.error}`);
  const checks = translateChecks(thresholds.set.entries, plan.value);

  const dir = resolve(options.outDir ?? DEFAULT_EXPORT_DIR);
  const name = scenario.name;
  const banner = `// Generated by \`plumbline load export --scenario ${name} --format ${options.format}\`: plumbline's runtime and the plan of this scenario. Regenerate rather than edit.`;
  const files: Array<[string, string]> = [];
  if (options.format === "artillery") {
    const processor = `${name}.processor.mjs`;
    files.push([`${name}.artillery.yml`, artilleryScript(plan.value, checks, processor)]);
    files.push([processor, await artilleryProcessorSource(plan.value, banner)]);
  } else {
    files.push([`${name}.k6.js`, await k6Source(plan.value, k6Options(plan.value, checks), banner)]);
  }
  try {
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of files) writeFileSync(join(dir, file), text);
  } catch (err) {
    return cannot(`cannot write to ${dir}: ${(err as Error).message}`);
  }
  return { ok: true, exitCode: 0, files: files.map(([f]) => join(dir, f)), plan: plan.value, checks };
}

export { API_KEY_ENV };
