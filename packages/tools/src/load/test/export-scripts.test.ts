// Issue 31, without an engine: every scenario exports to an Artillery script and to a k6 script of the expected
// structure (k6 cannot be installed here: its script is imported under Node with stand-ins for k6's modules and one
// iteration run against canned answers); the bundled Artillery processor judges answers as plumbline load does; the
// thresholds translate, or say why not; the commands' --help create nothing; the account step reads both engines.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadContract } from "@plumbline-kit/contract";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { parse } from "yaml";
import { BIN } from "../../../../../test-support/cli-process.ts";
import { readReportedCounts } from "../export/load-account.ts";
import { runLoadExport } from "../export/run-export.ts";
import { listScenarios } from "../scenario-file.ts";

const dir = mkdtempSync(join(tmpdir(), "plb-export-scripts-"));
const TARGET = "http://127.0.0.1:9";
const FIXTURE = "http://127.0.0.1:4020";
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Added = { metric: string; value: number; tags?: Record<string, string> };

/** Imports a generated k6 script under Node, k6's modules replaced by recording stand-ins. */
async function importK6(file: string, answer: (method: string, url: string) => Record<string, unknown>) {
  const added: Added[] = [];
  const requests: Array<{ method: string; url: string; body: string | null; params: Record<string, unknown> }> = [];
  const stubs = {
    http: {
      request: (method: string, url: string, body: string | null, params: Record<string, unknown>) => {
        requests.push({ method, url, body, params });
        return { timings: { duration: 5 }, headers: {}, ...answer(method, url) };
      },
    },
    sleep: () => {},
    metric: (name: string) => ({
      add: (value: number, tags?: Record<string, string>) => added.push({ metric: name, value, tags }),
    }),
    exec: { scenario: { startTime: Date.now() - 60_000 } },
  };
  const g = globalThis as Record<string, unknown>;
  g.__plbK6 = stubs;
  g.__ENV = { PLUMBLINE_API_KEY: "K6KEY" };
  const source = readFileSync(file, "utf8")
    .replace(/import http from "k6\/http";/, "const http = globalThis.__plbK6.http;")
    .replace(/import \{ sleep \} from "k6";/, "const sleep = globalThis.__plbK6.sleep;")
    .replace(
      /import \{ Counter, Rate, Trend \} from "k6\/metrics";/,
      "const Counter = function (n) { return globalThis.__plbK6.metric(n); }; const Rate = Counter; const Trend = Counter;",
    )
    .replace(/import exec from "k6\/execution";/, "const exec = globalThis.__plbK6.exec;");
  expect(source).not.toMatch(/from "k6/);
  const copy = `${file}.node.mjs`;
  writeFileSync(copy, source);
  const mod = (await import(pathToFileURL(copy).href)) as Record<string, unknown>;
  return { mod, added, requests };
}

describe("every scenario exports", () => {
  for (const scenario of listScenarios())
    it(`${scenario}: an Artillery script and a k6 script of the expected structure`, async () => {
      const out = join(dir, scenario);
      const common = { scenario, target: TARGET, fixtureUrl: FIXTURE, outDir: out, ignoreRateLimits: true };
      const a = await runLoadExport({ ...common, format: "artillery" });
      if (!a.ok) throw new Error(a.error);
      const yml = parse(readFileSync(a.files[0], "utf8"));
      const plan = a.plan;
      expect(yml.config).toMatchObject({ target: TARGET, processor: `./${scenario}.processor.mjs` });
      expect(yml.config.phases.at(-1)).toEqual({ name: "measured", duration: 10, arrivalRate: 10 });
      expect(yml.config.plugins.ensure.conditions).toHaveLength(a.checks.checks.filter((c) => c.artillery).length);
      const steps = yml.scenarios.flatMap((s: { flow: object[] }) => s.flow);
      const requests = steps
        .flatMap((s: Record<string, unknown>) => (s.loop ? (s.loop as object[]) : [s]))
        .map((s: Record<string, unknown>) => Object.values(s)[0] as Record<string, unknown>)
        .filter((r: Record<string, unknown>) => typeof r === "object" && r !== null && "url" in r);
      if (plan.flow) {
        expect(yml.scenarios).toHaveLength(1);
        expect(requests.map((r: { name: string }) => r.name)).toEqual(["f0", "p0", "z0"]);
        expect(steps.find((s: Record<string, unknown>) => s.loop)).toMatchObject({ whileTrue: "plumblineFlowPolling" });
      } else {
        // one Artillery scenario per request, weights kept
        expect(yml.scenarios.map((s: { weight: number }) => s.weight)).toEqual(plan.templates.map((t) => t.weight));
        for (const [i, t] of plan.templates.entries()) {
          const r = requests[i];
          expect(r.name).toBe(t.id);
          expect(r.url).toBe(t.path.replace(/\{\{(\w+)\}\}/g, "{{ $1 }}"));
          expect((r.headers as Record<string, string> | undefined)?.authorization).toBe(
            t.auth ? "Bearer {{ $env.PLUMBLINE_API_KEY }}" : undefined,
          );
          expect(r.body ?? null).toBe(t.body);
        }
      }

      const k = await runLoadExport({ ...common, format: "k6" });
      if (!k.ok) throw new Error(k.error);
      expect(k.files).toEqual([join(out, `${scenario}.k6.js`)]);
      const { mod } = await importK6(k.files[0], () => ({ status: 200, body: "{}" }));
      const options = mod.options as { scenarios: Record<string, Record<string, unknown>>; thresholds: object };
      const [name, s] = Object.entries(options.scenarios)[0];
      expect(name).toBe(plan.flow ? "deepcrawl_flow" : "requests");
      expect(s).toMatchObject({ executor: "ramping-arrival-rate", timeUnit: "1s", exec: expect.any(String) });
      expect(typeof mod[s.exec as string]).toBe("function");
      expect(typeof mod.setup).toBe("function");
      expect(s.stages).toEqual(
        plan.flow
          ? [{ duration: "10s", target: 10 }]
          : [
              { duration: "2s", target: 10 },
              { duration: "10s", target: 10 },
            ],
      );
      const k6Checks = k.checks.checks.filter((c) => c.k6);
      expect(Object.values(options.thresholds).flat()).toHaveLength(k6Checks.length);
    });
});

describe("the k6 script", () => {
  it("holds the mock budgets of the mixed scenario as k6 thresholds, and records what an iteration meets", async () => {
    const k = await runLoadExport({
      scenario: "mixed",
      target: TARGET,
      format: "k6",
      outDir: join(dir, "k6-mixed"),
      rate: 2000,
      ignoreRateLimits: true,
    });
    if (!k.ok) throw new Error(k.error);
    const { mod, added, requests } = await importK6(k.files[0], (_m, url) =>
      url.endsWith("/health") ? { status: 200, body: "{}" } : { status: 500, body: "{}" },
    );
    const options = mod.options as { thresholds: Record<string, string[]> };
    expect(options.thresholds).toMatchObject({
      "plumbline_errors{window:measured}": ["rate<0.001"],
      "plumbline_latency{window:measured}": ["p(95)<40", "p(99)<100"],
      "plumbline_latency{op:search,window:measured}": ["p(95)<40", "p(99)<100"],
      "plumbline_latency{op:screenshot,window:measured}": ["p(95)<1500", "p(99)<2500"],
      // rps > 800 over the 10 measured seconds
      "plumbline_answers{window:measured}": ["count>8000"],
    });
    const iterate = mod.plumblineRequests as (data: object) => void;
    for (let i = 0; i < 200; i++) iterate({});
    expect(requests.length).toBe(200);
    for (const r of requests) expect(r.url.startsWith(TARGET)).toBe(true);
    const auth = requests.filter((r) => (r.params.headers as Record<string, string>).authorization);
    expect(auth.every((r) => (r.params.headers as Record<string, string>).authorization === "Bearer K6KEY")).toBe(true);
    // a 500 is an error of its operation; /health's 200 is not; nothing was charged
    const errors = added.filter((a) => a.metric === "plumbline_errors");
    expect(errors).toHaveLength(200);
    for (const e of errors) expect(e.value, e.tags?.op).toBe(e.tags?.op === "health" ? 0 : 1);
    expect(added.filter((a) => a.metric === "plumbline_credits_counted")).toEqual([]);
    expect(new Set(added.map((a) => a.tags?.window).filter(Boolean))).toEqual(new Set(["measured"]));
  });
});

describe("the Artillery processor", () => {
  it("judges answers as plumbline load does: batch entries priced, a 429 within the policy throttling, a 500 an error", async () => {
    const e = await runLoadExport({
      scenario: "mixed",
      target: TARGET,
      format: "artillery",
      outDir: join(dir, "proc"),
      warmupSeconds: 0,
      rateLimit: "600",
    });
    if (!e.ok) throw new Error(e.error);
    // the processor reads the key when it loads; put back afterwards (a Vitest worker runs other files after this one)
    const keyBefore = process.env.PLUMBLINE_API_KEY;
    process.env.PLUMBLINE_API_KEY = "K";
    onTestFinished(() => {
      if (keyBefore === undefined) delete process.env.PLUMBLINE_API_KEY;
      else process.env.PLUMBLINE_API_KEY = keyBefore;
    });
    const processor = (await import(pathToFileURL(e.files[1]).href)).default as Record<
      string,
      (...a: unknown[]) => void
    >;
    const counters = new Map<string, number>();
    const ee = {
      emit: (kind: string, name: string, v: number) =>
        kind === "counter" && counters.set(name, (counters.get(name) ?? 0) + v),
    };
    const answer = (name: string, statusCode: number, body: string, headers: Record<string, string> = {}) => {
      const req: Record<string, unknown> = { name };
      processor.plumblineBeforeRequest(req, { vars: {} }, ee, () => {});
      processor.plumblineAfterResponse(
        req,
        { statusCode, headers, body, timings: { phases: { total: 3 } } },
        { vars: {} },
        ee,
        () => {},
      );
    };
    const contract = await loadContract();
    const batch = e.plan.templates.find((t) => t.operationId === "search" && t.batch);
    if (!batch) throw new Error("no search batch in mixed");
    // a search batch: the first entry succeeded, the second failed: only the first is charged
    answer(batch.id, 200, JSON.stringify({ results: [{ success: true }, { success: false }] }));
    const first = contract.prices.entryCredits("search", (batch.value as unknown[])[0]);
    expect(counters.get("plumbline.credits.counted")).toBe(first);
    const single = e.plan.templates.find((t) => t.operationId === "search" && !t.batch && !t.invalid);
    if (!single) throw new Error("no search in mixed");
    answer(single.id, 429, "{}", {
      "retry-after": "30",
      ratelimit: '"default";r=0;t=30',
      "ratelimit-policy": '"default";q=600;w=60',
    });
    answer(single.id, 500, "{}");
    expect(counters.get("plumbline.search.answered")).toBe(3);
    expect(counters.get("plumbline.search.throttled")).toBe(1);
    expect(counters.get("plumbline.search.unexpected")).toBe(1);
    // after the 429, the policy is paused for Retry-After: the next arrival is held back, not sent
    const vars: Record<string, unknown> = {};
    processor[`plumblineAdmit_${single.id}`]({ vars }, ee, () => {});
    expect(vars.plumbline_admitted).toBe(false);
    expect(counters.get("plumbline.search.held_back")).toBe(1);
    // a request never answered: counted as failed, its price allowed for by the account step
    const lost: Record<string, unknown> = { name: single.id };
    processor.plumblineBeforeRequest(lost, { vars: {} }, ee, () => {});
    processor.plumblineOnError(new Error("ECONNRESET"), lost, { vars: {} }, ee, () => {});
    expect(counters.get("plumbline.search.failed")).toBe(1);
    expect(counters.get("plumbline.credits.unanswered_max")).toBe(single.maxCredits);
  });
});

describe("thresholds the engines cannot express, and bounds nothing could meet", () => {
  it("says so per engine instead of changing them", async () => {
    const file = join(dir, "odd-thresholds.json");
    writeFileSync(
      file,
      JSON.stringify({ thresholds: { overall: ["p(99.9) < 1s", "rps > 50", "rps > 5"], search: ["p(99) < 1s"] } }),
    );
    const e = await runLoadExport({
      scenario: "search",
      target: TARGET,
      format: "artillery",
      outDir: join(dir, "odd"),
      thresholds: file,
      rate: 20,
      rateLimit: "600",
    });
    if (!e.ok) throw new Error(e.error);
    const byText = Object.fromEntries(e.checks.checks.map((c) => [c.expression, c]));
    expect(byText["p(99.9) < 1s"]).toMatchObject({
      artillery: null,
      k6: null,
      note: expect.stringMatching(/^Artillery: Artillery's summaries give p50.*; k6: p\(99\.9\) needs 5000 answers/),
    });
    const unpaced = await runLoadExport({
      scenario: "search",
      target: TARGET,
      format: "k6",
      outDir: join(dir, "odd"),
      thresholds: file,
      rate: 20,
      ignoreRateLimits: true,
    });
    if (!unpaced.ok) throw new Error(unpaced.error);
    expect(unpaced.checks.checks.find((c) => c.expression === "p(99.9) < 1s")?.k6).toEqual({
      metric: "plumbline_latency{window:measured}",
      expression: "p(99.9)<1000",
    });
    expect(e.checks.dropped).toEqual([
      {
        key: "overall",
        expression: "rps > 50",
        reason: expect.stringMatching(/at or above the arrival rate \(9\/s\)/),
      },
    ]);
    // paced at 9/s for 10 s: a p(99) of fewer than 500 answers is not judged (Artillery at run time; k6 cannot)
    expect(byText["p(99) < 1s"].artillery).toContain("plumbline.search.response_time.count < 500");
    expect(byText["p(99) < 1s"]).toMatchObject({
      k6: null,
      note: expect.stringMatching(/^k6: p\(99\) needs 500 answers/),
    });
    expect(byText["rps > 5"].artillery).toBe(
      "plumbline.overall.answered + plumbline.overall.failed == 0 or plumbline.overall.answered / 10 > 5",
    );
  });

  it("refuses what cannot be exported, before writing anything", async () => {
    const out = join(dir, "refused");
    for (const bad of [
      { format: "k7" },
      { scenario: "reference" },
      { rateLimit: "fast" },
      { rate: 0 },
      { scenario: "no-such-scenario" },
    ]) {
      const r = await runLoadExport({
        scenario: "search",
        target: TARGET,
        format: "artillery",
        outDir: out,
        ...bad,
      } as never);
      expect(r, JSON.stringify(bad)).toMatchObject({ ok: false, exitCode: 2 });
    }
    expect(() => readdirSync(out)).toThrow();
  });
});

describe("plumbline load export / account on the command line", () => {
  const cli = (args: string[], cwd: string) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (c) => {
        out += c;
      });
      child.stderr.on("data", (c) => {
        out += c;
      });
      child.on("close", (code) => resolve({ code, out }));
    });

  it("--help exits 0 and creates nothing; bad arguments exit 2", async () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const exp = await cli(["load", "export", "--help"], cwd);
    expect(exp).toMatchObject({
      code: 0,
      out: expect.stringMatching(
        /^Usage: plumbline load export \[options\]\n[\s\S]*--format <engine> .*\(choices: "artillery", "k6"\)/,
      ),
    });
    const acc = await cli(["load", "account", "--help"], cwd);
    expect(acc).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Usage: plumbline load account \[options\]\n[\s\S]*--before /),
    });
    expect(readdirSync(cwd)).toEqual([]);
    expect((await cli(["load", "export", "--target", TARGET], cwd)).code).toBe(2);
    expect((await cli(["load", "account", "--target", TARGET, "--api-key", "K"], cwd)).code).toBe(2);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("the account step reads both engines' reports", () => {
  it("an Artillery report, a k6 summary (either layout), and refuses anything else", () => {
    expect(
      readReportedCounts({
        aggregate: { counters: { "plumbline.credits.counted": 7, "plumbline.overall.throttled": 2 } },
      }),
    ).toEqual({
      ok: true,
      value: { engine: "artillery", counted: 7, unansweredRequests: 0, unansweredMax: 0, throttled: 2, heldBack: 0 },
    });
    expect(
      readReportedCounts({
        metrics: { plumbline_credits_counted: { count: 12, rate: 1.2 }, plumbline_held_back: { values: { count: 3 } } },
      }),
    ).toMatchObject({
      ok: true,
      value: { engine: "k6", counted: 12, heldBack: 3 },
    });
    // a k6 run that charged nothing leaves the counter out
    expect(readReportedCounts({ metrics: { plumbline_answers: { count: 4 } } })).toMatchObject({
      ok: true,
      value: { counted: 0 },
    });
    expect(readReportedCounts({ metrics: { http_reqs: { count: 4 } } })).toMatchObject({ ok: false });
    expect(readReportedCounts({ aggregate: { counters: { "plumbline.credits.counted": -1 } } })).toMatchObject({
      ok: false,
    });
    expect(readReportedCounts([1, 2])).toMatchObject({ ok: false });
  });
});
