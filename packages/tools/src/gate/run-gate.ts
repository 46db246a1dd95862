// runGate(): `plumbline gate` as a typed API (issue 17). Conformance, a time-boxed fuzz and a short load run against
// one target, with one exit code, one JUnit file (a suite per stage) and one HTML page linking the stages' reports.
// The time (--time) and the credits (--budget-credits) are shared: each stage gets what the ones before it left.

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import { createHttpClient, type HttpAnswer, retryOn429 } from "@plumbline-kit/contract/http/client";
import { probeTarget, unreachableLine } from "@plumbline-kit/contract/http/target-probe";
import type { CheckRecord } from "@plumbline-kit/contract/report/check-record";
import { plural } from "@plumbline-kit/contract/report/plural";
import { readFixtureManifest } from "../conformance/fixtures/fixture-manifest.ts";
import { runConformance } from "../conformance/index.ts";
import { checkRecords } from "../conformance/report/check-records.ts";
import { checkCount, parseAllowSkipped, SKIP_KINDS, tallyText } from "../conformance/skip-reasons.ts";
import { runFuzz } from "../fuzz/index.ts";
import { fuzzRecords } from "../fuzz/report/fuzz-records.ts";
import { readScenario, runLoad } from "../load/index.ts";
import { progressLine } from "../load/render-summary.ts";
import { gateJunit } from "./gate-junit.ts";
import { gatePage } from "./gate-page.ts";
import { type GateResult, STAGES, type StageName, type StageOutcome } from "./gate-types.ts";
import { averageRequestCredits, plannedLoadRate } from "./load-price.ts";

export interface GateOptions {
  target: string;
  apiKey: string;
  brokeApiKey?: string;
  /** default all three, in this order */
  stages?: StageName[];
  /** credits of the key the whole gate may spend; absent: the key's balance at the start (it cannot spend more) */
  budgetCredits?: number;
  /** seconds for the whole gate, shared by the stages (default 120) */
  timeSeconds?: number;
  /**
   * cases per input property of the fuzz stage (its stateful model runs a tenth as many sequences), as
   * Schemathesis' max-examples: the stage ends when they are done or its share of the time is up, whichever comes
   * first, so the same seed does the same work on any machine. Default: the stage fills its share of the time.
   */
  fuzzRuns?: number;
  /** seed of the fuzz stage (default random, printed in its report) */
  fuzzSeed?: number;
  /** operationIds the target implements (conform and fuzz --operations) */
  operations?: string[];
  /** the version of the contract every stage judges by, `seed` (default) or `live` (`--contract`; D-live-version) */
  contractVersion?: string;
  /** a fixture site the target can fetch (conformance, fuzz, load); with its manifest for the conformance canary */
  fixtureUrl?: string;
  /** fixtures export DIR → DIR/manifest.json, or serve-fixtures --manifest FILE (conformance --fixture-manifest) */
  fixtureManifest?: string;
  /** the fixture host's request log (conformance --fixture-log) */
  fixtureLog?: string;
  /** missing-precondition kinds whose skipped checks do not fail the conform stage (conformance --allow-skipped) */
  allowSkipped?: string[];
  /**
   * the target's rate limits: "auto" (default) from its RateLimit headers, or "N[,operation=M]" per 60 s; every
   * stage keeps under them (conformance --rate-limit, fuzz --rate, load --rate-limit)
   */
  rateLimit?: string;
  /** the old behaviour: the load is not paced and a 429 is an error (limits lifted for the test key) */
  ignoreRateLimits?: boolean;
  /**
   * load scenario (default mixed) and thresholds: a file or a name in load/thresholds/ (default "gate": correctness
   * and answers that come at all, no speed budget, which only the deployment's owner can state); null judges nothing
   */
  scenario?: string;
  thresholds?: string | null;
  /** pay per request in the conformance payment checks (conformance --payment-method test --payment-key) */
  paymentMethod?: "test";
  paymentKey?: string;
  /** an account the conformance OAuth checks sign in with (conformance --oauth-user/--oauth-password) */
  oauthUser?: string;
  oauthPassword?: string;
  allowRemote?: boolean;
  /**
   * seconds to wait for the target to answer at all (GET /health, any HTTP status) before the first stage, so a CI
   * step may start the target in the background just before the gate (default 30; 0 does not wait)
   */
  waitForTargetSeconds?: number;
  /** default reports/gate/<timestamp>; null writes nothing */
  reportDir?: string | null;
  onProgress?: (line: string) => void;
}

const SHRINK_SECONDS = 5;
/** Seconds between the load stage's progress lines. */
const LOAD_PROGRESS_SECONDS = 5;
/** The gate's default load budgets (load/thresholds/gate.json): correctness, never the machine's speed. */
export const GATE_THRESHOLDS = "gate";
/** Arrivals per second above which a credit budget does not set the load's pace (the cap still holds). */
const MAX_BUDGET_RATE = 1000;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.floor(v)));

/**
 * The gate's own balance reads, by the shared client: a 429 is waited out as Retry-After says (the target's limit,
 * never its fault), each read within 10 s (it had no time limit: a target that never answered hung the gate).
 */
async function readBalance(target: string, key: string): Promise<number | null> {
  const http = createHttpClient();
  try {
    const res = await retryOn429(
      () =>
        http.request({
          method: "GET",
          url: `${target}/usage`,
          headers: { authorization: `Bearer ${key}` },
          timeoutMs: 10_000,
        }),
      { attempts: 3 },
    );
    if (!res.ok || res.status === 429) return null;
    let body: { usage?: unknown } | null = null;
    try {
      body = JSON.parse(res.body.toString("utf8"));
    } catch {}
    return typeof body?.usage === "number" ? body.usage : null;
  } finally {
    http.close();
  }
}

const firstLine = (s: string) => s.split("\n")[0];

/** Seconds between the lines saying the gate still waits for its target. */
const WAIT_NOTICE_SECONDS = 5;

/**
 * Waits until the target answers HTTP at all, saying what it waits for: at the first refusal, then every
 * WAIT_NOTICE_SECONDS. The last failure when it never answered within `seconds`.
 */
async function waitForTarget(
  target: string,
  seconds: number,
  log: (line: string) => void,
): Promise<Extract<HttpAnswer, { ok: false }> | null> {
  const t0 = Date.now();
  const until = t0 + seconds * 1000;
  let nextNotice = 0;
  const http = createHttpClient();
  try {
    for (let attempt = 0; ; attempt++) {
      const res = await http.request({ method: "GET", url: `${target}/health`, timeoutMs: 5000 });
      if (res.ok) {
        if (attempt > 0) log(`gate: ${target} answers (after ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        return null;
      }
      if (Date.now() >= until) return res;
      if (Date.now() >= nextNotice) {
        const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
        const why = unreachableLine(target, res).replace(/: is the server running\?$/, "");
        log(
          attempt === 0
            ? `gate: waiting up to ${seconds} s for ${target}/health to answer: ${why}`
            : `gate: still waiting for ${target}/health (${left} s left): ${why}`,
        );
        nextNotice = Date.now() + WAIT_NOTICE_SECONDS * 1000;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    http.close();
  }
}

/** The account's requests per second of a stated `N[,operation=M]` (per 60 s), for the fuzzer's fixed pace. */
const statedRate = (text: string) => Number(text.split(",")[0]) / 60;

/** "2/2 thresholds held (1 not judged: …)": a skipped threshold is neither held nor missed. */
function thresholdTally(ts: Array<{ status: string }>): string {
  const judged = ts.filter((t) => t.status !== "skipped");
  const held = judged.filter((t) => t.status === "passed").length;
  const skipped = ts.length - judged.length;
  return `${held}/${plural(judged.length, "threshold")} held${skipped ? ` (${skipped} not judged: not exercised or not judgeable at the run's rate)` : ""}`;
}

/** Options that cannot work, found before anything is sent. */
function gateOptionsError(o: GateOptions): string | null {
  const allowed = parseAllowSkipped(o.allowSkipped);
  if (!allowed.ok) return allowed.error;
  if (o.rateLimit !== undefined && !/^(auto|\d+(,[A-Za-z][\w-]*=\d+)*)$/.test(o.rateLimit))
    return `--rate-limit takes auto or N[,operation=M], not "${o.rateLimit}"`;
  if (o.rateLimit !== undefined && o.ignoreRateLimits)
    return "--rate-limit and --ignore-rate-limits exclude each other";
  if (o.fixtureManifest) {
    const read = readFixtureManifest(o.fixtureManifest);
    if (!read.ok) return read.error;
  }
  return null;
}

export async function runGate(o: GateOptions): Promise<GateResult> {
  const log = o.onProgress ?? (() => {});
  const started = Date.now();
  /** Nothing ran: exit code 2, the reason logged and returned. */
  // the reason is the result's error, printed once by the caller
  const couldNotRun = (error: string): GateResult => {
    return {
      exitCode: 2,
      target: o.target,
      startedAt: new Date(started).toISOString(),
      seconds: (Date.now() - started) / 1000,
      budgetCredits: o.budgetCredits ?? null,
      creditsSpent: null,
      stages: [],
      reportDir: null,
      error,
    };
  };
  const early = gateOptionsError(o);
  if (early) return couldNotRun(early);
  // the fixture site of the manifest, for the stages that only take its address (fuzz, load)
  const manifest = o.fixtureManifest ? readFixtureManifest(o.fixtureManifest) : null;
  const fixtureUrl = o.fixtureUrl ?? (manifest?.ok ? manifest.manifest.origins.main : undefined);
  const target = o.target.replace(/\/+$/, "");
  const total = (o.timeSeconds ?? 120) * 1000;
  const left = () => Math.max(0, started + total - Date.now()) / 1000;
  const stages = STAGES.filter((s) => (o.stages ?? STAGES).includes(s));
  const dir =
    o.reportDir === undefined
      ? join("reports", "gate", new Date(started).toISOString().replace(/[:.]/g, "-"))
      : o.reportDir;
  const stageDir = (s: StageName) => (dir === null ? null : join(dir, s));
  const outcomes: StageOutcome[] = [];
  const waitSeconds = o.waitForTargetSeconds ?? 30;
  const unreachable = await waitForTarget(target, waitSeconds, log);
  if (unreachable !== null)
    return couldNotRun(
      `${unreachableLine(target, unreachable)}${waitSeconds ? ` (waited ${waitSeconds} s; --wait-for-target S waits longer)` : ""}`,
    );
  // something answers: it must be this API (a static site, another service are refused before any stage)
  const probe = await probeTarget(target);
  if (!probe.ok) return couldNotRun(probe.message);
  const startBalance = await readBalance(target, o.apiKey);
  let spent = 0;
  // the account's balance is the most the gate can spend: without --budget-credits it is the budget, so no stage
  // runs the key dry (a paid call refused 402 would be the gate's doing, not the target's)
  const budget = o.budgetCredits ?? startBalance ?? undefined;
  const budgetLeft = () => (budget === undefined ? undefined : Math.max(0, budget - spent));
  // one balance read between stages (each read draws on the target's rate limits): a stage's after is the next's before
  let lastBalance = startBalance;

  for (const stage of stages) {
    const t0 = Date.now();
    const before = lastBalance;
    log(
      `gate: ${stage} (${left().toFixed(0)} s and ${budgetLeft() === undefined ? "unlimited credits" : plural(budgetLeft() as number, "credit")} left)`,
    );
    const outcome = await runStage(stage);
    const after = await readBalance(target, o.apiKey);
    lastBalance = after;
    outcome.seconds = (Date.now() - t0) / 1000;
    if (outcome.creditsSpent === null && before !== null && after !== null) outcome.creditsSpent = before - after;
    spent += outcome.creditsSpent ?? 0;
    outcomes.push(outcome);
    log(
      `gate: ${stage} ${outcome.exitCode === 0 ? "passed" : outcome.exitCode === 1 ? "FAILED" : "could not run"}: ${outcome.error ?? outcome.summary}`,
    );
  }

  async function runStage(stage: StageName): Promise<StageOutcome> {
    const base = { stage, seconds: 0, creditsSpent: null, cases: [] as StageOutcome["cases"] };
    const reportDir = stageDir(stage);
    if (stage === "conform") {
      const r = await runConformance({
        target,
        apiKey: o.apiKey,
        brokeApiKey: o.brokeApiKey,
        operations: o.operations,
        contractVersion: o.contractVersion,
        fixtureUrl: o.fixtureUrl,
        fixtureManifest: o.fixtureManifest,
        fixtureLog: o.fixtureLog,
        allowSkipped: o.allowSkipped,
        paymentMethod: o.paymentMethod,
        paymentKey: o.paymentKey,
        oauthUser: o.oauthUser,
        oauthPassword: o.oauthPassword,
        rateLimit: o.rateLimit,
        maxCredits: budgetLeft(),
        reportDir,
        onProgress: (l) => log(`  ${l}`),
      });
      const skips = r.skips ?? [];
      const unmet = skips.filter((t) => !t.allowed);
      return {
        ...base,
        exitCode: r.exitCode as 0 | 1 | 2,
        creditsSpent: r.creditsSpent ?? null,
        error: r.error,
        report: reportDir === null || r.error ? null : "conform/report.html",
        summary: `${r.summary.passed} passed, ${r.summary.failed} failed, ${plural(r.summary.warning, "warning")}, ${r.summary.skipped} skipped${skips.length ? ` (${tallyText(skips)})` : ""}${unmet.length ? `; precondition not met: ${unmet.map((t) => t.kind).join(", ")} (--allow-skipped to accept)` : ""}`,
        cases: [
          // the suite's own records (conformance/report/check-records.ts), grouped under conform.<family>
          ...checkRecords(r).map((c) => ({ ...c, group: c.group.replace(/^conformance\./, "conform.") })),
          // skips cannot hide (issue 27): one case per kind, failing when a missing precondition was not allowed
          ...skips.map(
            (t): CheckRecord => ({
              id: `skipped: ${t.kind} (${checkCount(t)})`,
              group: "conform.skips",
              status: t.allowed ? "passed" : "failed",
              durationMs: 0,
              output: `${SKIP_KINDS[t.kind].label}: ${t.reason}${t.allowedBy ? ` (allowed: ${t.allowedBy})` : ""}`,
              ...(t.allowed
                ? {}
                : { message: `precondition not met: ${t.kind}: ${t.reason}; --allow-skipped ${t.kind} accepts it` }),
            }),
          ),
        ],
      };
    }
    if (stage === "fuzz") {
      // most of what is left, keeping room for shrinking a failure and for the load stage after it
      const timeSeconds = clamp(left() * (stages.includes("load") ? 0.6 : 0.9) - SHRINK_SECONDS, 3, 300);
      const budget = budgetLeft();
      const r = await runFuzz({
        target,
        apiKey: o.apiKey,
        timeSeconds,
        runs: o.fuzzRuns,
        seed: o.fuzzSeed,
        shrinkSeconds: SHRINK_SECONDS,
        operations: o.operations ? [...new Set([...o.operations, "usage"])] : undefined,
        contractVersion: o.contractVersion,
        fixtureUrl,
        // stated limits: the fuzzer's fixed pace under the account's; otherwise the advertised pace, as before
        // (--ignore-rate-limits concerns the load stage: the fuzzer always kept to the target's limits)
        rate: o.rateLimit && o.rateLimit !== "auto" ? statedRate(o.rateLimit) : "auto",
        maxCredits: budget === undefined ? undefined : Math.floor(budget * (stages.includes("load") ? 0.6 : 1)),
        reportDir,
        corpusDir: reportDir === null ? null : join(reportDir, "corpus"),
        onProgress: (l) => log(`  ${l}`),
      });
      const props = r.report.properties;
      return {
        ...base,
        exitCode: r.exitCode as 0 | 1 | 2,
        error: r.exitCode === 2 ? (r.report.error ?? "the fuzz run could not proceed") : undefined,
        report: reportDir === null || r.exitCode === 2 ? null : "fuzz/report.html",
        summary: `${plural(r.report.totals.cases, "input case")} in ${r.report.totals.seconds.toFixed(1)} s; ${props.filter((p) => p.passed).length}/${plural(props.length, "property", "properties")} held`,
        cases: fuzzRecords(r.report),
      };
    }
    // load: a short run with the seconds left, at a rate the credits left cover (on average: the run's credit cap
    // holds back what a draw would take past them), and under the target's limits (runLoad paces itself)
    const warmupSeconds = 1;
    const durationSeconds = clamp(left() - warmupSeconds - 3, 2, 60);
    const budget = budgetLeft();
    let rate: number | undefined;
    if (budget !== undefined) {
      const scenario = readScenario(o.scenario ?? "mixed");
      if (!scenario.ok) return { ...base, exitCode: 2, error: scenario.error, report: null, summary: "" };
      const perRequest = averageRequestCredits(await loadContract({ version: o.contractVersion }), scenario.scenario);
      rate = plannedLoadRate({
        budget,
        perRequest,
        stageSeconds: durationSeconds + warmupSeconds,
        boxSeconds: total / 1000,
      });
      if (rate < 0.1) {
        const error = `the ${plural(budget, "credit")} left cannot cover a request every 10 s for ${durationSeconds + warmupSeconds} s (${perRequest.toFixed(2)} credits a request on average)`;
        return { ...base, exitCode: 2, error, report: null, summary: "" };
      }
      // a budget no rate of a short run can reach binds nothing: the closed loop, under the credit cap
      if (rate > MAX_BUDGET_RATE) rate = undefined;
    }
    let lastProgress = 0;
    log(
      `  load: ${durationSeconds} s measured after a ${warmupSeconds} s warm-up${rate === undefined ? "" : ` at ${rate} arrivals/s`}, a line every ${LOAD_PROGRESS_SECONDS} s`,
    );
    const r = await runLoad({
      target,
      apiKey: o.apiKey,
      scenario: o.scenario,
      contractVersion: o.contractVersion,
      durationSeconds,
      warmupSeconds,
      rate,
      maxCredits: budget,
      rateLimit: o.rateLimit,
      ignoreRateLimits: o.ignoreRateLimits,
      fixtureUrl,
      thresholds: o.thresholds === undefined ? GATE_THRESHOLDS : o.thresholds,
      allowRemote: o.allowRemote,
      reportDir,
      onWait: (l) => log(`  ${l}`),
      // a line every LOAD_PROGRESS_SECONDS (the load samples each second): the stage is never silent for long
      onProgress: (p) => {
        if (p.elapsedSeconds < lastProgress + LOAD_PROGRESS_SECONDS) return;
        lastProgress = p.elapsedSeconds;
        log(`  ${progressLine(p, durationSeconds)}`);
      },
    });
    if (!r.ok) return { ...base, exitCode: 2, error: r.error, report: null, summary: "" };
    const rep = r.report;
    const limits = rep.rateLimits;
    return {
      ...base,
      exitCode: r.exitCode,
      creditsSpent: rep.credits.spent ?? null,
      report: reportDir === null ? null : "load/report.html",
      summary: `${thresholdTally(rep.thresholds)}; credits ${rep.credits.pass ? "accounted" : "NOT accounted"}${limits ? `; ${limits.detail}` : ""}`,
      cases: [
        ...(limits
          ? [
              {
                id: "rate limits",
                group: "load.limits",
                status: "passed",
                durationMs: 0,
                output: [limits.detail, ...limits.unjudged.map((u) => `not judged: ${u}`)].join("\n"),
              } satisfies CheckRecord,
            ]
          : []),
        ...rep.thresholds.map(
          (t): CheckRecord => ({
            id: `${t.key}: ${t.expression}`,
            group: "load.threshold",
            status: t.status === "failed" ? "failed" : t.status === "skipped" ? "skipped" : "passed",
            durationMs: 0,
            ...(t.status === "failed" ? { message: `${t.expression}: measured ${t.actual}` } : {}),
            ...(t.status === "skipped" ? { message: t.note ?? "skipped" } : {}),
          }),
        ),
        {
          id: "credit accounting",
          group: "load.credits",
          status: rep.credits.pass ? "passed" : "failed",
          durationMs: 0,
          ...(rep.credits.pass ? {} : { message: firstLine(rep.credits.detail) }),
        },
      ],
    };
  }

  const endBalance = await readBalance(target, o.apiKey);
  const codes = outcomes.map((s) => s.exitCode ?? 0);
  const result: GateResult = {
    exitCode: Math.max(0, ...codes) as 0 | 1 | 2,
    target,
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    budgetCredits: o.budgetCredits ?? null,
    creditsSpent: startBalance !== null && endBalance !== null ? startBalance - endBalance : spent,
    stages: outcomes,
    reportDir: dir,
  };
  if (dir !== null && outcomes.length) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "junit.xml"), gateJunit(outcomes));
    await writeFile(join(dir, "index.html"), gatePage(result));
    await writeFile(join(dir, "gate.json"), `${JSON.stringify(result, null, 2)}\n`);
    log(`gate: reports in ${dir} (index.html, junit.xml)`);
  }
  return result;
}
