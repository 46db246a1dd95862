// runConformance(): the whole run as a typed API (the CLI is a thin wrapper). Exit codes mean one thing each:
// 0 every check passed (warnings and skips allowed), 1 a check failed, 2 the run could not proceed.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Contract, loadContract, profileNames } from "@plumbline-kit/contract";
import { probeTarget } from "@plumbline-kit/contract/http/target-probe";
import { plural } from "@plumbline-kit/contract/report/plural";
import { balance } from "./check-helpers.ts";
import {
  baseOf,
  type FixtureManifest,
  manifestProblem,
  originsAt,
  readFixtureManifest,
} from "./fixtures/fixture-manifest.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/fixture-server.ts";
import { createHttpClient, type HttpClient } from "./http-client.ts";
import { makeScope, type OperationScope } from "./operation-scope.ts";
import { makePlan, type Plan, planLines, refusalToCalibrate, usesFixtures } from "./plan.ts";
import { fetchesRealPages } from "./probes/canary.ts";
import { calibrateRefusal, NO_REFUSAL, type RefusalCalibration } from "./probes/payment-refusal.ts";
import { parseRateLimit, type RateLimitSetting } from "./rate-windows.ts";
import { CHECKS } from "./registry.ts";
import { writeReports } from "./report/write-reports.ts";
import { parseAllowSkipped, type SkipKind, tallySkips, unmet, unmetLines } from "./skip-reasons.ts";
import {
  type CheckDefinition,
  type CheckResult,
  CONFORMANCE_PROFILES,
  type ConformanceOptions,
  type ConformanceResult,
  type Probe,
  type ResolvedOptions,
  type RunContext,
} from "./types.ts";

const PHASES = ["main", "last", "traffic"] as const;

function rateSetting(v: ConformanceOptions["rateLimit"]): RateLimitSetting | string {
  if (v === undefined) return "auto";
  if (typeof v !== "string") return v;
  try {
    return parseRateLimit(v);
  } catch (err) {
    return `!${(err as Error).message}`;
  }
}

function resolve(o: ConformanceOptions): ResolvedOptions {
  const allowed = parseAllowSkipped(o.allowSkipped);
  return {
    allowSkipped: allowed.ok ? allowed.kinds : [],
    rateLimit: rateSetting(o.rateLimit) as RateLimitSetting,
    target: o.target.replace(/\/+$/, ""),
    apiKey: o.apiKey,
    brokeApiKey: o.brokeApiKey,
    paymentMethod: o.paymentMethod,
    paymentKey: o.paymentKey,
    profile: o.profile ?? "strict",
    only: o.only ?? [],
    skip: o.skip ?? [],
    operations: o.operations ?? [],
    include: o.include ?? [],
    reportDir:
      o.reportDir === undefined
        ? join("reports", "conformance", new Date().toISOString().replace(/[:.]/g, "-"))
        : o.reportDir,
    maxCredits: o.maxCredits,
    fixtureUrl: o.fixtureUrl === undefined ? undefined : baseOf(o.fixtureUrl),
    timeoutSeconds: o.timeoutSeconds ?? 120,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    oauthUser: o.oauthUser ?? process.env.PLUMBLINE_OAUTH_USER,
    oauthPassword: o.oauthPassword ?? process.env.PLUMBLINE_OAUTH_PASSWORD,
    chromiumPath: o.chromiumPath ?? process.env.PLUMBLINE_CHROMIUM,
    onProgress: o.onProgress ?? (() => {}),
  };
}

export async function runConformance(input: ConformanceOptions): Promise<ConformanceResult> {
  const started = Date.now();
  const o = resolve(input);
  const result: ConformanceResult = {
    exitCode: 2,
    target: o.target,
    profile: o.profile,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    planCredits: 0,
    summary: { total: 0, passed: 0, failed: 0, warning: 0, skipped: 0 },
    skips: [],
    checks: [],
    exchanges: [],
  };
  // the reason is the result's error, printed once by the caller (the CLI, the gate)
  const stop = (error: string) => ({ ...result, error, durationMs: Date.now() - started });
  if (!CONFORMANCE_PROFILES.includes(o.profile))
    return stop(`unknown profile "${o.profile}" (${CONFORMANCE_PROFILES.join(", ")})`);
  if (!/^https?:\/\/[^/]+/.test(o.target)) return stop(`--target must be an http(s) URL, not "${o.target}"`);
  if (!o.apiKey) return stop("an API key is required (--api-key)");
  if (typeof o.rateLimit === "string" && o.rateLimit.startsWith("!")) return stop(o.rateLimit.slice(1));
  const allowed = parseAllowSkipped(input.allowSkipped);
  if (!allowed.ok) return stop(allowed.error);
  const fixtureSite = resolveFixtureSite(input, o);
  if (fixtureSite) return stop(fixtureSite);

  let contract: Contract;
  let altContract: Contract;
  try {
    ({ contract, altContract } = await loadContracts(input.spec, input.contractVersion));
  } catch (err) {
    return stop(`the document ${input.spec ?? "spec/openapi.yaml"} does not load: ${(err as Error).message}`);
  }
  const scoped = makeScope(contract, o.operations);
  if (!scoped.ok) return stop(scoped.error);
  const { scope } = scoped;
  if (scope.selected) result.operations = scope.selected;
  const unrefused = makePlan(contract, altContract, o, scope);
  if (!unrefused.ok) return stop(unrefused.error);
  // a down target, or one that is not this API (a static site, another service), is refused before any check
  const probe = await probeTarget(o.target, { timeoutMs: o.requestTimeoutMs });
  if (!probe.ok) return stop(probe.message);
  const http = createHttpClient({
    target: o.target,
    apiKey: o.apiKey,
    brokeApiKey: o.brokeApiKey,
    requestTimeoutMs: o.requestTimeoutMs,
    contract,
    runId: randomBytes(3).toString("hex"),
    onWait: o.onProgress,
    rateLimit: o.rateLimit,
  });
  result.exchanges = http.exchanges;
  // before the plan is costed: where the target qualifies, its costly valid edges cost nothing (payment-refusal.ts)
  const toCalibrate = refusalToCalibrate(contract, altContract, scope, unrefused.plan);
  const best = makePlan(contract, altContract, o, scope, new Set(toCalibrate));
  if (best.ok && o.maxCredits !== undefined && best.plan.credits > o.maxCredits) {
    // over the cap even if every costly edge were judged for free: refused before any request
    result.planCredits = best.plan.credits;
    o.onProgress(
      `plan: ${plural(best.plan.checks.length, "check")}, at least ${plural(best.plan.credits, "credit")} on the target account`,
    );
    for (const line of planLines(contract, altContract, o, scope, best.plan, new Set(toCalibrate))) o.onProgress(line);
    const refusals = toCalibrate.length ? " even with every costly edge judged by a payment refusal" : "";
    return stop(
      `the plan may spend ${plural(best.plan.credits, "credit")}${refusals}, over --max-credits ${o.maxCredits}`,
    );
  }
  const refusal = toCalibrate.length ? await calibrateRefusal(http, contract, toCalibrate) : NO_REFUSAL;
  if (refusal.unreachable) return stop(`target ${o.target} unreachable: ${refusal.unreachable}`);
  const planned = makePlan(contract, altContract, o, scope, refusal.operations);
  if (!planned.ok) return stop(planned.error);
  const { plan } = planned;
  result.planCredits = plan.credits;
  const restricted = scope.selected
    ? ` (operations ${scope.selected.join(", ")}; ${plural(plan.unselected.length, "check")} not selected)`
    : "";
  o.onProgress(
    `plan: ${plural(plan.checks.length, "check")}, at most ${plural(plan.credits, "credit")} on the target account${restricted}`,
  );
  for (const line of refusalLines(refusal)) o.onProgress(line);
  for (const line of planLines(contract, altContract, o, scope, plan, refusal.operations)) o.onProgress(line);
  if (o.maxCredits !== undefined && plan.credits > o.maxCredits) {
    return stop(`the plan may spend ${plural(plan.credits, "credit")}, over --max-credits ${o.maxCredits}`);
  }

  // the semantic checks need pages the target can fetch: serve the fixture site here unless a copy is given
  let fixtures: FixtureServer | undefined;
  if (!o.fixtureUrl && plan.checks.some(usesFixtures)) {
    fixtures = await startFixtureServer();
    const site = fixtures;
    o.fixtureUrl = site.url;
    o.fixtureNoSitemapUrl = site.noSitemapUrl;
    o.fixtureConventionalUrl = site.conventionalUrl;
    o.fixtureRequests = () => site.requests;
    o.fixtureCanary = site.newCanary;
    o.fixtureStatusPages = { "404": "/status/404", "410": "/status/410" };
  }
  try {
    return await execute(o, plan, scope, { contract, altContract, http, refusal }, result, started);
  } finally {
    http.close();
    await fixtures?.close();
  }
}

/**
 * The contract the suite judges by (another version with `spec`), and its alt-bounds profile: a document without
 * that profile is judged by its own bounds only.
 */
export async function loadContracts(
  spec?: string,
  version?: string,
): Promise<{ contract: Contract; altContract: Contract }> {
  const contract = await loadContract({ path: spec, version });
  const hasAlt = profileNames(contract.raw).includes("alt-bounds");
  const altContract = hasAlt ? await loadContract({ path: spec, version, profile: "alt-bounds" }) : contract;
  return { contract, altContract };
}

/**
 * A fixture site the run did not start (--fixture-url, --fixture-manifest, --fixture-log): its origins, status and
 * pad pages from the manifest, and its request log. Returns why the run cannot proceed, or null.
 */
function resolveFixtureSite(input: ConformanceOptions, o: ResolvedOptions): string | null {
  let manifest: FixtureManifest | undefined;
  if (typeof input.fixtureManifest === "string") {
    const read = readFixtureManifest(input.fixtureManifest);
    if (!read.ok) return read.error;
    manifest = read.manifest;
  } else if (input.fixtureManifest) {
    const problem = manifestProblem(input.fixtureManifest);
    if (problem) return `fixtureManifest: ${problem}`;
    manifest = input.fixtureManifest;
  }
  if (input.fixtureLog && !o.fixtureUrl && !manifest) return "--fixture-log needs --fixture-url or --fixture-manifest";
  if (manifest) {
    const at = originsAt(manifest, o.fixtureUrl);
    if (!at.ok) return at.error;
    o.fixtureManifest = manifest;
    o.fixtureUrl = at.origins.main;
    o.fixtureNoSitemapUrl = at.origins.noSitemap ?? undefined;
    o.fixtureConventionalUrl = at.origins.conventional ?? undefined;
    o.fixtureStatusPages = manifest.statusPages;
  } else if (o.fixtureUrl) {
    // a site of unknown make: the canary cannot run (no tokens); the rest as the live server serves it
    o.fixtureStatusPages = { "404": "/status/404", "410": "/status/410" };
  }
  const logFile = input.fixtureLog;
  if (logFile) o.fixtureRequests = () => readRequestLog(logFile);
  return null;
}

/**
 * The requests of a fixture host's log: a line holding a URL gives it; a Common/Combined Log Format line gives the
 * path of its request line (no host: matched on every origin).
 */
export function readRequestLog(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const url = /\bhttps?:\/\/[^\s"]+/.exec(line);
    const request = /"[A-Z]+ (\/[^\s"]*)[^"]*"/.exec(line);
    if (request) out.push(request[1]);
    else if (url) out.push(url[0]);
  }
  return out;
}

/** What the run prints about the payment-refusal calibration. */
function refusalLines(refusal: RefusalCalibration): string[] {
  if (refusal.notes.length === 0) return [];
  const used = [...refusal.operations];
  const head = used.length
    ? `payment refusal: ${used.join(", ")} validate before judging a Payment credential; their costly valid edges are judged by the 402 refusal at their price, nothing spent`
    : "payment refusal: not used (costly valid edges are paid)";
  return [head, ...refusal.notes.filter((n) => !used.some((u) => n.startsWith(`${u}:`))).map((n) => `  ${n}`)];
}

async function execute(
  o: ResolvedOptions,
  plan: Plan,
  scope: OperationScope,
  t: { contract: Contract; altContract: Contract; http: HttpClient; refusal: RefusalCalibration },
  result: ConformanceResult,
  started: number,
): Promise<ConformanceResult> {
  // the reason is the result's error, printed once by the caller (the CLI, the gate)
  const stop = (error: string) => ({ ...result, error, durationMs: Date.now() - started });
  const { contract, altContract, http, refusal } = t;
  result.exchanges = http.exchanges;
  const probes = new Map<string, Promise<unknown>>();
  const ctx: RunContext = {
    contract,
    altContract,
    http,
    options: o,
    scope,
    refusal,
    progress: o.onProgress,
    probe<T>(p: Probe<T>) {
      if (!probes.has(p.id)) probes.set(p.id, p.run(ctx));
      return probes.get(p.id) as Promise<T>;
    },
  };

  // preflight: a target that does not answer, or a key it refuses, makes every check meaningless
  const health = await http.call("preflight", "GET", "/health", { auth: "none" });
  if (!health.response) return stop(`target ${o.target} unreachable: ${health.error}`);
  const start = await balance(ctx, "preflight");
  if (start.exchange.response?.status === 401) return stop("the target refuses the API key (GET /usage → 401)");
  if (start.value !== null && start.value < plan.credits) {
    return stop(`the account holds ${plural(start.value, "credit")}; the plan may spend ${plan.credits}`);
  }

  const reasons = new Map(plan.unselected.map((u) => [u.check.id, u.reason]));
  const all = CHECKS.filter((c) => plan.checks.includes(c) || reasons.has(c.id));
  const ordered = PHASES.flatMap((ph) => all.filter((c) => (c.phase ?? "main") === ph));
  // a reason shared by several checks (a synthetic target skips 13 for one long reason) is printed in full once;
  // the later checks name the first one (the summary groups the skips by kind with their reason)
  const firstWithReason = new Map<string, string>();
  for (const [i, check] of ordered.entries()) {
    const reason = reasons.get(check.id);
    const r = reason ? notRun(check, reason) : await runCheck(check, ctx);
    result.checks.push(r);
    const mark = { passed: "pass", failed: "FAIL", warning: "warn", skipped: "skip" }[r.status];
    const first = r.reason ? firstWithReason.get(r.reason) : undefined;
    if (r.reason && !first) firstWithReason.set(r.reason, check.id);
    const why =
      r.status === "failed"
        ? ` (${plural(r.failures.length, "failure")})`
        : first
          ? ` (same reason as ${first})`
          : r.reason
            ? ` (${r.reason})`
            : "";
    o.onProgress(`[${String(i + 1).padStart(2)}/${ordered.length}] ${mark} ${check.id}${why} ${r.durationMs} ms`);
  }

  // no waiting here: the 429 check waits out its Retry-After, but not one it judged absurd (the account may be limited)
  const end = await balance(ctx, "postflight", "main", true);
  if (start.value !== null && end.value !== null) result.creditsSpent = start.value - end.value;
  for (const r of result.checks) result.summary[r.status]++;
  result.summary.total = result.checks.length;
  result.boundSet = result.checks.find((c) => c.facts?.["bound-set"])?.facts?.["bound-set"];
  const canary = probes.has(fetchesRealPages.id) ? await ctx.probe(fetchesRealPages) : null;
  if (canary) result.canary = { kind: canary.kind, reason: canary.reason };
  result.skips = tallySkips(result.checks, o.allowSkipped, canary?.kind === "synthetic");
  for (const line of unmetLines(result.skips)) o.onProgress(line);
  result.exitCode = result.summary.failed > 0 || unmet(result.skips).length > 0 ? 1 : 0;
  result.durationMs = Date.now() - started;
  if (o.reportDir !== null) {
    result.reportDir = o.reportDir;
    await writeReports(result, o.reportDir);
    o.onProgress(`reports in ${o.reportDir}`);
  }
  return result;
}

function notRun(check: CheckDefinition, reason: string): CheckResult {
  const { id, title, severity, section, basis } = check;
  return {
    id,
    title,
    severity,
    section,
    basis,
    status: "skipped",
    reason,
    skipKind: "not-selected",
    failures: [],
    notes: [],
    exchangeIds: [],
    durationMs: 0,
  };
}

async function unmetPrecondition(
  check: CheckDefinition,
  ctx: RunContext,
): Promise<{ reason: string; kind: SkipKind } | null> {
  for (const p of check.preconditions ?? []) {
    if (p === "broke-key" && !ctx.options.brokeApiKey)
      return { kind: "broke-key", reason: "needs --broke-api-key (an account with zero credits)" };
    if (p === "payment-key" && !(ctx.options.paymentMethod === "test" && ctx.options.paymentKey))
      return {
        kind: "payment-key",
        reason: "warning: not paid for: needs --payment-method test --payment-key KEY (the target's test payment key)",
      };
    if (p === "fetches-real-pages") {
      const verdict = await ctx.probe(fetchesRealPages);
      if (!verdict.real)
        return { kind: verdict.kind === "real" ? "not-applicable" : verdict.kind, reason: verdict.reason };
    }
  }
  return null;
}

async function runCheck(check: CheckDefinition, ctx: RunContext): Promise<CheckResult> {
  const t0 = performance.now();
  const base = {
    id: check.id,
    title: check.title,
    severity: check.severity,
    section: check.section,
    basis: check.basis,
    notes: [] as string[],
  };
  const makers = new Set([check.id, ...(check.probes ?? []).map((p) => `probe:${p.id}`)]);
  const done = (
    r: Omit<CheckResult, keyof typeof base | "durationMs" | "exchangeIds"> & { notes?: string[] },
  ): CheckResult => ({
    ...base,
    ...r,
    notes: r.notes ?? [],
    exchangeIds: ctx.http.exchanges.filter((e) => makers.has(e.by)).map((e) => e.id),
    durationMs: Math.round(performance.now() - t0),
  });
  const missing = await unmetPrecondition(check, ctx);
  if (missing) return done({ status: "skipped", reason: missing.reason, skipKind: missing.kind, failures: [] });
  try {
    const out = await check.run(ctx);
    if (out.skip)
      return done({
        status: "skipped",
        reason: out.skip,
        skipKind: out.skipKind ?? "not-applicable",
        failures: [],
        notes: out.notes,
        facts: out.facts,
      });
    if (out.failures.length === 0) return done({ status: "passed", failures: [], notes: out.notes, facts: out.facts });
    // what breaks one of the service's official clients fails the run (issue 35): the contract allows it, but every
    // caller of that client breaks. The lenient profile (the interface text only) reports it as a warning instead.
    if (check.basis.kind === "client") {
      const breaks = `${check.basis.client} ${check.basis.relies}`;
      if (ctx.options.profile === "lenient") {
        const reason = `client compatibility, not a contract violation (lenient profile): ${breaks}`;
        return done({ status: "warning", reason, failures: out.failures, notes: out.notes, facts: out.facts });
      }
      const reason = `breaks an official client (${check.basis.decision}): ${breaks}`;
      return done({ status: "failed", reason, failures: out.failures, notes: out.notes, facts: out.facts });
    }
    // lenient: only what the interface text itself pins fails; a decision's failure is reported, not fatal
    if (ctx.options.profile === "lenient" && check.basis.kind === "decision") {
      const reason = `rests on decision ${check.basis.decision} (lenient profile)`;
      return done({ status: "warning", reason, failures: out.failures, notes: out.notes, facts: out.facts });
    }
    return done({ status: "failed", failures: out.failures, notes: out.notes, facts: out.facts });
  } catch (err) {
    const message = `the check crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    return done({ status: "failed", failures: [{ message, exchanges: [] }] });
  }
}
