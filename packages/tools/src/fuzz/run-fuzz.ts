// runFuzz(): the typed API behind `plumbline fuzz` (issue 6). Probes the target (and reads the fixture site the
// URLs of valid bodies come from, when one is given and the target really fetches), runs the properties under the
// time budget (valid input, invalid input, the stateful model), checks the target is still healthy, prints and
// stores what reproduces each failure, writes the report. Exit codes: 0 nothing found, 1 a property failed,
// 2 the run could not proceed (style: "exit codes mean one thing each").
import { join } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import { parseRateLimitPolicy } from "@plumbline-kit/contract/rate-limit-headers";
import { plural } from "@plumbline-kit/contract/report/plural";
import { operationCases } from "./arbitraries/operation-cases.ts";
import { readBalance } from "./checks/run-case.ts";
import type { Waiver } from "./checks/waivers.ts";
import { type FixtureSite, isSiteUrl, readFixtureSite } from "./http/fixture-site.ts";
import { createHttpClient } from "./http/http-client.ts";
import { probeTarget } from "./http/target-probe.ts";
import { modelOperations } from "./model/model-property.ts";
import type { RunContext } from "./properties/property-runs.ts";
import { runPropertyStep } from "./properties/property-step.ts";
import { emptyReport, finishReport, type ReportState } from "./report/report-state.ts";
import { ALL_PROPERTIES, type PropertyName } from "./repro/corpus-entry.ts";
import { replayCorpus } from "./repro/replay-command.ts";

/** Like reports/, relative to where the command runs: in this repository, the corpus `npm test` replays. */
export const DEFAULT_CORPUS_DIR = join("fuzz", "corpus");
/** How the time budget is shared (the search phase; shrinking a failure has a budget of its own). */
const SHARE: Record<PropertyName, number> = { "valid-input": 0.4, "invalid-input": 0.35, "stateful-model": 0.25 };

export interface FuzzOptions {
  target: string;
  apiKey: string;
  /** default: a random seed, printed and reported */
  seed?: number;
  /** search budget in seconds (default 30 unless `runs` is given) */
  timeSeconds?: number;
  /** cases per input property instead of a time budget (the model runs runs/10 sequences) */
  runs?: number;
  /** the version of the contract fuzzed, `seed` (default) or `live` (`--contract`; D-live-version) */
  contractVersion?: string;
  /** operationIds to fuzz (default every operation): `plumbline fuzz --operations` */
  operations?: string[];
  /** @deprecated the old name of `operations` (`--only`), kept for callers that use it */
  only?: string[];
  /** the target's test payment key (`--payment-test-key` of the mock or reference): the model pays for calls too */
  paymentKey?: string;
  /**
   * A site the target can fetch (e.g. `plumbline conform serve-fixtures`): URIs of valid bodies name its pages, and
   * a call naming one that answers 404/410 or nothing must say so (fuzz/README.md). Ignored on a target that
   * advertises the mock's admin API, which fetches nothing.
   */
  fixtureUrl?: string;
  properties?: PropertyName[];
  /** parallel workers on a target with /__mock (default 8; always 1 elsewhere: one key, one balance) */
  workers?: number;
  requestTimeoutMs?: number;
  shrinkSeconds?: number;
  /** printable ASCII text only */
  ascii?: boolean;
  /** report folder; null writes none; default reports/fuzz/<timestamp> */
  reportDir?: string | null;
  /** where replay files of failures go; null writes none; default fuzz/corpus */
  corpusDir?: string | null;
  /** replay a corpus file or folder instead of fuzzing */
  replay?: string;
  waivers?: Waiver[];
  /** stop after the first property that fails */
  failFast?: boolean;
  /**
   * requests per second at most, for a limit the target does not advertise; "auto" (default) keeps to the pace
   * the target's RateLimit headers advertise; 0 sends as fast as the target answers
   */
  rate?: number | "auto";
  /**
   * credits the run may spend of the given key: valid cases priced over what is left are not sent, and the stateful
   * model (whose sequences spend without a cap) runs only on a target with the mock's admin API, which gives it
   * accounts of its own
   */
  maxCredits?: number;
  onProgress?: (line: string) => void;
}

export interface FuzzResult extends ReportState {}

/**
 * What the run says at its start about its pace: the target's advertised limit (RateLimit-Policy) and that the run
 * keeps under it, a fixed --rate, or that it sends as fast as the target answers.
 */
export function pacingLine(rate: number | "auto", ratePolicy: string | undefined): string {
  if (typeof rate === "number")
    return rate > 0
      ? `pacing: at most ${rate} requests/s (--rate)`
      : "pacing: none (--rate 0): as fast as the target answers";
  const policy = parseRateLimitPolicy(ratePolicy);
  if (!policy) return "pacing: none: the target advertises no rate limit (no RateLimit-Policy on GET /usage)";
  const perSecond = policy.quota / policy.windowSeconds;
  return `pacing: the target allows ${plural(policy.quota, "request")} per ${policy.windowSeconds} s (RateLimit-Policy "${policy.policy}", ${perSecond.toFixed(perSecond < 10 ? 2 : 0)}/s): the run spreads its requests over each window as the RateLimit header says, so it goes slower than the target answers (--rate N sets a pace instead)`;
}

export function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  return fuzz({ ...options, only: options.operations ?? options.only });
}

async function fuzz(o: FuzzOptions): Promise<FuzzResult> {
  const log = o.onProgress ?? (() => {});
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const timeSeconds = o.runs === undefined ? (o.timeSeconds ?? 30) : (o.timeSeconds ?? null);
  const state = emptyReport(o, seed, timeSeconds);
  const couldNotRun = (why: string) => finishReport(state, o, 2, why, log);
  const contract = await loadContract({ version: o.contractVersion });
  const known = new Set(contract.contractOperations.map((op) => op.operationId));
  const unknown = (o.only ?? []).filter((id) => !known.has(id));
  if (unknown.length) return couldNotRun(`unknown operation(s) in --operations: ${unknown.join(", ")}`);
  if (o.fixtureUrl !== undefined && !isSiteUrl(o.fixtureUrl))
    return couldNotRun(`--fixture-url takes an http(s) URL, not "${o.fixtureUrl}"`);
  // no wait for a rate-limit window is started past the budget (search and shrinking): a run ends on time
  const deadline = timeSeconds === null ? null : Date.now() + (timeSeconds + (o.shrinkSeconds ?? 10)) * 1000 + 5_000;
  const client = createHttpClient({
    baseUrl: o.target,
    apiKey: o.apiKey,
    timeoutMs: o.requestTimeoutMs ?? 10_000,
    rate: o.rate ?? "auto",
    deadline: () => deadline,
    onWait: log,
  });
  try {
    const probe = await probeTarget(client);
    if (!probe.ok) return couldNotRun(probe.reason);
    const target = probe.target;
    state.report.target = { url: target.baseUrl, version: target.version, admin: target.admin, clock: target.clock };
    const balance = await readBalance(client, o.apiKey);
    if (!balance.ok && "throttled" in balance)
      return couldNotRun("GET /usage stays rate-limited (429) even after waiting as Retry-After says");
    if (!balance.ok) return couldNotRun(`the API key is refused: ${balance.failure.message}`);
    log(
      `plumbline fuzz ${target.baseUrl} seed ${seed}${target.admin ? ` (mock admin API, ${target.clock} clock)` : ""}`,
    );
    log(pacingLine(o.rate ?? "auto", balance.ratePolicy));
    let site: FixtureSite | null = null;
    if (o.fixtureUrl && target.admin)
      log(`--fixture-url ignored: the target is the mock (GET /__mock), it fetches nothing`);
    else if (o.fixtureUrl) {
      const read = await readFixtureSite(o.fixtureUrl, o.requestTimeoutMs ?? 10_000);
      if (!read.ok) return couldNotRun(read.reason);
      site = read.site;
      state.report.fixture = { url: site.url, pages: site.pages, failing: site.failing };
      log(`fixture site ${site.url}: ${plural(site.pages.length, "page")}, ${site.failing.length} failing URLs`);
    }
    const cases = operationCases(contract.contractOperations, { only: o.only, ascii: o.ascii, site });
    const ctx: RunContext = {
      contract,
      client,
      target,
      apiKey: o.apiKey,
      cases,
      waivers: o.waivers ?? [],
      only: o.only,
      paymentKey: o.paymentKey,
      progress: [],
      ...(o.maxCredits === undefined ? {} : { budget: { remaining: o.maxCredits } }),
    };
    if (o.replay) {
      const code = await replayCorpus(ctx, o.replay, state, log);
      return finishReport(state, o, code, state.report.error, log);
    }

    const modelCapped = o.maxCredits !== undefined && !target.admin;
    if (modelCapped && (o.properties ?? ALL_PROPERTIES).includes("stateful-model"))
      log(
        "stateful-model skipped: --max-credits on a target without the mock's admin API (its sequences spend uncapped)",
      );
    const wanted = (o.properties ?? ALL_PROPERTIES).filter(
      (p) =>
        p !== "stateful-model" || (!modelCapped && cases.some((c) => modelOperations(o.only).includes(c.operationId))),
    );
    const shares = wanted.reduce((sum, p) => sum + SHARE[p], 0);
    const ticker = setInterval(
      () =>
        log(
          `  … ${plural(
            ctx.progress.reduce((n, p) => n + p.cases, 0),
            "case",
          )}`,
        ),
      2000,
    );
    ticker.unref();
    let failed = false;
    try {
      for (const [i, property] of wanted.entries()) {
        if (failed && o.failFast) break;
        const plan = {
          workers: o.workers ?? 8,
          seed: seed + i * 1000,
          timeMs: timeSeconds === null ? undefined : (timeSeconds * 1000 * SHARE[property]) / shares,
          runs:
            o.runs === undefined
              ? undefined
              : property === "stateful-model"
                ? Math.max(1, Math.ceil(o.runs / 10))
                : o.runs,
          shrinkMs: (o.shrinkSeconds ?? 10) * 1000,
        };
        log(
          `${property}: ${plan.timeMs !== undefined ? `${(plan.timeMs / 1000).toFixed(1)} s` : `${plural(plan.runs ?? 0, "run")}`}, seed ${plan.seed}`,
        );
        const corpusDir = o.corpusDir === undefined ? DEFAULT_CORPUS_DIR : o.corpusDir;
        const report = await runPropertyStep(ctx, property, plan, corpusDir, log);
        if (!report.passed) failed = true;
        state.report.properties.push(report);
      }
    } finally {
      clearInterval(ticker);
    }
    const health = await client.send({ method: "GET", path: "/health" }, null);
    const healthy = health.ok && health.status === 200;
    state.report.health = {
      passed: healthy,
      message: health.ok ? `GET /health answered ${health.status}` : health.message,
    };
    if (!healthy) log(`✗ health-after-run: ${state.report.health.message}`);
    return finishReport(state, o, failed || !healthy ? 1 : 0, null, log);
  } finally {
    client.close();
  }
}
