// runGate(): `plumbline gate` as a typed API (issue 17). Conformance, a time-boxed fuzz and a short load run against
// one target, with one exit code, one JUnit file (a suite per stage) and one HTML page linking the stages' reports.
// The time (--time) and the credits (--budget-credits) are shared: each stage gets what the ones before it left.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runConformance } from "../conformance/index.ts";
import { runFuzz } from "../fuzz/index.ts";
import { readScenario, runLoad } from "../load/index.ts";
import { loadContract } from "../spec/index.ts";
import { gateJunit } from "./gate-junit.ts";
import { gatePage } from "./gate-page.ts";
import { type GateResult, STAGES, type StageName, type StageOutcome } from "./gate-types.ts";
import { maxRequestCredits } from "./load-price.ts";

export interface GateOptions {
  target: string;
  apiKey: string;
  brokeApiKey?: string;
  /** default all three, in this order */
  stages?: StageName[];
  /** credits of the key the whole gate may spend; absent: no cap */
  budgetCredits?: number;
  /** seconds for the whole gate, shared by the stages (default 120) */
  timeSeconds?: number;
  /** operationIds the target implements (conformance --operations, fuzz --only) */
  operations?: string[];
  fixtureUrl?: string;
  /** load scenario (default mixed) and thresholds (default: the file for the mock) */
  scenario?: string;
  thresholds?: string | null;
  allowRemote?: boolean;
  /** default reports/gate/<timestamp>; null writes nothing */
  reportDir?: string | null;
  onProgress?: (line: string) => void;
}

const SHRINK_SECONDS = 5;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.floor(v)));

async function readBalance(target: string, key: string): Promise<number | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await fetch(`${target}/usage`, { headers: { authorization: `Bearer ${key}` } }).catch(() => null);
    if (!res) return null;
    if (res.status === 429) {
      const wait = Math.min(65, Math.max(1, Number(res.headers.get("retry-after")) || 5));
      await new Promise((r) => setTimeout(r, wait * 1000));
      continue;
    }
    const body = (await res.json().catch(() => null)) as { usage?: unknown } | null;
    return typeof body?.usage === "number" ? body.usage : null;
  }
  return null;
}

const firstLine = (s: string) => s.split("\n")[0];

export async function runGate(o: GateOptions): Promise<GateResult> {
  const log = o.onProgress ?? (() => {});
  const started = Date.now();
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
  const startBalance = await readBalance(target, o.apiKey);
  let spent = 0;
  const budgetLeft = () => (o.budgetCredits === undefined ? undefined : Math.max(0, o.budgetCredits - spent));

  for (const stage of stages) {
    const t0 = Date.now();
    const before = await readBalance(target, o.apiKey);
    log(`gate: ${stage} (${left().toFixed(0)} s and ${budgetLeft() ?? "unlimited"} credits left)`);
    const outcome = await runStage(stage);
    const after = await readBalance(target, o.apiKey);
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
        fixtureUrl: o.fixtureUrl,
        maxCredits: budgetLeft(),
        reportDir,
        onProgress: (l) => log(`  ${l}`),
      });
      return {
        ...base,
        exitCode: r.exitCode as 0 | 1 | 2,
        creditsSpent: r.creditsSpent ?? null,
        error: r.error,
        report: reportDir === null || r.error ? null : "conform/report.html",
        summary: `${r.summary.passed} passed, ${r.summary.failed} failed, ${r.summary.warning} warnings, ${r.summary.skipped} skipped`,
        cases: r.checks.map((c) => ({
          name: c.id,
          classname: `conform.${c.id.split("-")[0]}`,
          seconds: c.durationMs / 1000,
          ...(c.status === "failed" ? { failure: c.failures.map((f) => f.message).join("\n") } : {}),
          ...(c.status === "skipped" ? { skipped: c.reason ?? "skipped" } : {}),
        })),
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
        shrinkSeconds: SHRINK_SECONDS,
        only: o.operations ? [...new Set([...o.operations, "usage"])] : undefined,
        fixtureUrl: o.fixtureUrl,
        maxCredits: budget === undefined ? undefined : Math.floor(budget * (stages.includes("load") ? 0.6 : 1)),
        reportDir,
        corpusDir: reportDir === null ? null : join(reportDir, "corpus"),
        onProgress: (l) => log(`  ${l}`),
      });
      const props = r.report.properties;
      const health = r.report.health;
      return {
        ...base,
        exitCode: r.exitCode as 0 | 1 | 2,
        error: r.exitCode === 2 ? (r.report.error ?? "the fuzz run could not proceed") : undefined,
        report: reportDir === null || r.exitCode === 2 ? null : "fuzz/report.html",
        summary: `${r.report.totals.cases} input cases in ${r.report.totals.seconds.toFixed(1)} s; ${props.filter((p) => p.passed).length}/${props.length} properties held`,
        cases: [
          ...props.map((p) => ({
            name: p.property,
            classname: "fuzz.property",
            seconds: p.seconds,
            ...(p.passed
              ? {}
              : {
                  failure:
                    p.failure?.failures.map((f) => `${f.check}: ${f.message}`).join("\n") ||
                    (p.failure?.error ?? "failed"),
                }),
          })),
          ...(health
            ? [
                {
                  name: "healthy after the run",
                  classname: "fuzz.health",
                  seconds: 0,
                  ...(health.passed ? {} : { failure: health.message }),
                },
              ]
            : []),
        ],
      };
    }
    // load: a short run with the seconds left, at a rate the credits left cover
    const warmupSeconds = 1;
    const durationSeconds = clamp(left() - warmupSeconds - 3, 2, 60);
    const budget = budgetLeft();
    let rate: number | undefined;
    if (budget !== undefined) {
      const scenario = readScenario(o.scenario ?? "mixed");
      if (!scenario.ok) return { ...base, exitCode: 2, error: scenario.error, report: null, summary: "" };
      const perRequest = maxRequestCredits(await loadContract(), scenario.scenario);
      rate = Math.floor(budget / ((durationSeconds + warmupSeconds) * perRequest));
      if (rate < 1) {
        const error = `the ${budget} credits left cannot cover one request per second for ${durationSeconds + warmupSeconds} s (up to ${perRequest} credits a request)`;
        return { ...base, exitCode: 2, error, report: null, summary: "" };
      }
    }
    const r = await runLoad({
      target,
      apiKey: o.apiKey,
      scenario: o.scenario,
      durationSeconds,
      warmupSeconds,
      rate,
      fixtureUrl: o.fixtureUrl,
      thresholds: o.thresholds,
      allowRemote: o.allowRemote,
      reportDir,
    });
    if (!r.ok) return { ...base, exitCode: 2, error: r.error, report: null, summary: "" };
    const rep = r.report;
    return {
      ...base,
      exitCode: r.exitCode,
      creditsSpent: rep.credits.spent ?? null,
      report: reportDir === null ? null : "load/report.html",
      summary: `${rep.thresholds.filter((t) => t.status === "passed").length}/${rep.thresholds.length} thresholds held; credits ${rep.credits.pass ? "accounted" : "NOT accounted"}`,
      cases: [
        ...rep.thresholds.map((t) => ({
          name: `${t.key}: ${t.expression}`,
          classname: "load.threshold",
          seconds: 0,
          ...(t.status === "failed" ? { failure: `${t.expression}: measured ${t.actual}` } : {}),
          ...(t.status === "skipped" ? { skipped: t.note ?? "skipped" } : {}),
        })),
        {
          name: "credit accounting",
          classname: "load.credits",
          seconds: 0,
          ...(rep.credits.pass ? {} : { failure: firstLine(rep.credits.detail) }),
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
  if (dir !== null) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "junit.xml"), gateJunit(outcomes));
    await writeFile(join(dir, "index.html"), gatePage(result));
    await writeFile(join(dir, "gate.json"), `${JSON.stringify(result, null, 2)}\n`);
    log(`gate: reports in ${dir} (index.html, junit.xml)`);
  }
  return result;
}
