// The suite end to end against the mock started through the CLI: a full run passes (exit 0) well within 60 s and
// writes its three reports (a child process, as CI runs it); a run that cannot proceed exits 2 (the same command
// through the dispatcher in process: no second Node loading the contract for an exit code).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plumblineInProcess } from "../../../../../test-support/cli-in-process.ts";
import { runCliOutput } from "../../../../../test-support/cli-process.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { REPORT_FILES } from "../report/write-reports.ts";
import type { ConformanceResult } from "../types.ts";

const MOCK_ARGS = ["--key", "KEY:10000000", "--key", "BROKE:0", "--deepcrawl-steps", "0,0,200", "--rate-limit", "0"];

const conform = (args: string[]) => runCliOutput(["conform", ...args]);
const conformInProcess = (args: string[]) => plumblineInProcess(["conform", ...args]);

let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess(MOCK_ARGS);
});
afterAll(async () => {
  await mock?.stop();
});

describe("plumbline conform against the mock", () => {
  it("passes every check, exit 0, in well under 60 s, and writes JSON, JUnit and HTML reports", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plb-conform-"));
    const started = Date.now();
    const { code, out } = await conform([
      "--target",
      mock.url,
      "--api-key",
      "KEY",
      "--broke-api-key",
      "BROKE",
      "--payment-method",
      "test",
      "--payment-key",
      "plumbline-demo-payment-key",
      "--report-dir",
      dir,
    ]);
    const seconds = (Date.now() - started) / 1000;
    expect(out).toMatch(/^plan: \d+ checks, at most \d+ credits/m);
    expect(out).toMatch(/\[ 1\/\d+\] pass /);
    expect(code, out).toBe(0);
    expect(seconds).toBeLessThan(60);
    const record = JSON.parse(readFileSync(join(dir, REPORT_FILES.json), "utf8")) as ConformanceResult;
    expect(record.summary.failed).toBe(0);
    expect(record.boundSet).toBe("primary");
    const payments = record.checks.filter((c) => c.id.startsWith("payment-") && c.id !== "payment-challenge");
    expect(payments.map((c) => [c.id, c.status])).toEqual([
      ["payment-challenge-parameters", "passed"],
      ["payment-receipt", "passed"],
      ["payment-replay-refused", "passed"],
      ["payment-amount-refused", "passed"],
    ]);
    expect(record.creditsSpent).toBeLessThanOrEqual(record.planCredits);
    // issue 17: the costly valid edges are judged by a payment refusal (the mock validates first), nothing spent
    expect(out).toMatch(/^payment refusal: search, news, crawl, deepcrawl validate before/m);
    expect(record.creditsSpent).toBeLessThanOrEqual(250);
    // the deliberate 429 (issue 35): this mock's limiting is off (--rate-limit 0), so it advertises no window and the
    // check says so (rate-limit.test.ts judges it against a limited mock)
    const throttle = record.checks.find((c) => c.id === "rate-limit-retry-after");
    expect(throttle).toMatchObject({ status: "skipped", skipKind: "not-applicable" });
    expect(throttle?.reason).toMatch(/^GET \/usage advertises no rate limit \(no RateLimit header\)/);
    // the mock cannot fetch real pages: semantic checks are skipped with the reason, never passed
    const skipped = record.checks.filter((x) => x.status === "skipped" && x !== throttle);
    expect(skipped.map((c) => c.id)).toEqual(expect.arrayContaining(["crawl-readable-text", "sitemap-follows-robots"]));
    // checks that need no real page run on the synthetic target too (issue 17)
    const by = (id: string) => record.checks.find((c) => c.id === id)?.status;
    for (const id of ["crawl-no-script-style", "sitemap-requested-host", "deepcrawl-terminal-stays"])
      expect(by(id), id).toBe("passed");
    for (const c of skipped) expect(c.reason).toMatch(/does not fetch real pages/);
    // issue 27: the mock refuses the loopback fixture page (400, as the reference does) but answers a page on a host
    // that cannot exist with 200: it makes its answers up, a synthetic target, green with its skips counted
    expect(record.canary?.kind).toBe("synthetic");
    expect(record.skips.map((t) => [t.kind, t.count, t.allowed])).toEqual([
      ["synthetic", skipped.length, true],
      ["not-applicable", 1, true],
    ]);
    expect(out).toMatch(
      new RegExp(`^PASSED: .* ${skipped.length + 1} skipped \\(${skipped.length} synthetic, 1 not-applicable\\)`, "m"),
    );
    expect(out).toMatch(/^skipped \d+ synthetic: the target does not fetch real pages/m);
    // issue 37: the long reason is printed once while the checks run; the others name the first check it skipped
    const reason = skipped[0].reason as string;
    expect(out.split(reason).length - 1).toBe(2); // its progress line and the summary's line
    for (const c of skipped.slice(1))
      expect(out).toMatch(new RegExp(`\\] skip ${c.id} \\(same reason as ${skipped[0].id}\\) \\d+ ms$`, "m"));
    // issue 26: the client-compatibility checks run and pass, and nothing else warns either
    const client = record.checks.filter((x) => x.id.startsWith("client-"));
    expect(client.map((x) => [x.id, x.status])).toEqual([
      ["client-deepcrawl-success-unfinished", "passed"],
      ["client-search-echo-defaults", "passed"],
      ["client-validation-message-names-field", "passed"],
      ["client-trending-description-null", "passed"],
    ]);
    expect(record.summary.warning).toBe(0);
    expect(out).toMatch(/^PASSED: \d+ passed, 0 failed, 0 warnings/m);
    const junit = readFileSync(join(dir, REPORT_FILES.junit), "utf8");
    expect(junit).toMatch(/<testsuites name="plumbline conformance/);
    expect(junit).not.toMatch(/<failure/);
    expect(junit).toContain(`<property name="skipped.synthetic" value="${skipped.length}"/>`);
    const html = readFileSync(join(dir, REPORT_FILES.html), "utf8");
    for (const c of record.checks) expect(html).toContain(c.id);
    // credentials never reach a report
    for (const f of Object.values(REPORT_FILES)) expect(readFileSync(join(dir, f), "utf8")).not.toMatch(/Bearer KEY\b/);
  }, 60_000);

  it("downgrades nothing in lenient and reports the primary bound set in alt-bounds", async () => {
    const lenient = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      profile: "lenient",
      reportDir: null,
      only: ["bounds-published-set", "x-request-id"],
    });
    expect(lenient.exitCode).toBe(0);
    const alt = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      profile: "alt-bounds",
      reportDir: null,
      only: ["bounds-published-set"],
      // the operations whose bounds the two sets define differently (search): the others' cases cannot tell them apart
      operations: ["search"],
    });
    expect(alt.exitCode).toBe(0);
    expect(alt.boundSet).toBe("primary");
  }, 90_000);

  it("skips the 402 checks with a reason when no broke key is given: a missing precondition, fatal unless allowed", async () => {
    const run = (allowSkipped?: string[]) =>
      runConformance({
        target: mock.url,
        apiKey: "KEY",
        reportDir: null,
        only: ["billing-zero-balance-402"],
        allowSkipped,
      });
    const r = await run();
    expect(r.checks[0]).toMatchObject({
      status: "skipped",
      skipKind: "broke-key",
      reason: expect.stringContaining("--broke-api-key"),
    });
    // issue 27: no canary ran (nothing here needs real pages), so nothing says the target is a test double
    expect(r.skips).toEqual([
      expect.objectContaining({ kind: "broke-key", count: 1, precondition: true, allowed: false }),
    ]);
    expect(r.exitCode).toBe(1);
    const allowed = await run(["broke-key"]);
    expect(allowed.skips[0]).toMatchObject({ kind: "broke-key", allowed: true, allowedBy: "--allow-skipped" });
    expect(allowed.exitCode).toBe(0);
  });

  it("skips the payment checks with a warning when no test payment key is given", async () => {
    const r = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      reportDir: null,
      only: ["payment-receipt", "payment-replay-refused"],
    });
    for (const c of r.checks)
      expect(c).toMatchObject({
        status: "skipped",
        skipKind: "payment-key",
        reason: expect.stringMatching(/^warning: .*--payment-method test/),
      });
    expect(r.exitCode).toBe(1);
    const allowed = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      reportDir: null,
      only: ["payment-receipt", "payment-replay-refused"],
      allowSkipped: ["payment-key"],
    });
    expect(allowed.exitCode).toBe(0);
  });

  it("fails the payment checks when the key is not the target's: the paid call is refused", async () => {
    const r = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      reportDir: null,
      paymentMethod: "test",
      paymentKey: "not-the-mock-key",
      only: ["payment-receipt"],
    });
    expect(r.checks[0].status).toBe("failed");
    expect(r.exitCode).toBe(1);
  });

  it("exits 2 on bad arguments (CLI)", async () => {
    const args = ["--target", mock.url, "--api-key", "KEY", "--no-report"];
    const bogus = await conformInProcess([...args, "--profile", "bogus"]);
    expect(bogus.code).toBe(2);
    expect(bogus.out).toMatch(/argument 'bogus' is invalid/);
    const unknown = await conformInProcess([...args, "--only", "no-such-check"]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/unknown check id\(s\): no-such-check/);
  }, 60_000);

  it("restricts the run to --operations: other operations' checks skipped, spanning checks and cost narrowed", async () => {
    const full = await runConformance({ target: mock.url, apiKey: "KEY", reportDir: null, maxCredits: 0 });
    const r = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      brokeApiKey: "BROKE",
      reportDir: null,
      operations: ["crawl", "sitemap"],
    });
    expect(r.exitCode, JSON.stringify(r.checks.filter((c) => c.status === "failed"))).toBe(0);
    expect(r.operations).toEqual(["crawl", "sitemap"]);
    expect(r.planCredits).toBeGreaterThan(0);
    expect(r.planCredits).toBeLessThan(full.planCredits);
    expect(r.creditsSpent).toBeLessThanOrEqual(r.planCredits);
    // no request reached an operation outside the selection and the platform's own
    const reached = new Set(r.exchanges.map((e) => e.operationId).filter((x) => x !== null));
    const allowed = ["crawl", "sitemap", "health", "usage", "getOpenApiDocument", "getProtectedResourceMetadata"];
    // the agent discovery documents (issue 15) are platform documents too
    allowed.push(
      "getMcpProtectedResourceMetadata",
      "getApiCatalog",
      "getMcpServerCard",
      "getAgentSkillsIndex",
      "getAgentSkill",
    );
    expect([...reached].filter((op) => !allowed.includes(op as string))).toEqual([]);
    const status = (id: string) => r.checks.find((c) => c.id === id);
    for (const id of ["deepcrawl-completes", "search-echo", "screenshot-pixel-size", "extract-results-match-format"])
      expect(status(id)).toMatchObject({ status: "skipped", reason: "operation not selected" });
    for (const id of [
      "billing-price-per-operation",
      "auth-invalid-bearer-401",
      "billing-zero-balance-402",
      "health-status-version",
    ])
      expect(status(id)?.status).toBe("passed");
    const priced = r.exchanges.filter((e) => e.by === "probe:priced-calls" && e.request.method === "POST");
    expect(priced.map((e) => e.operationId)).toEqual(["crawl", "sitemap"]);
  }, 60_000);

  it("brings the deepcrawl status poll with deepcrawl, and exits 2 on an unknown operation id", async () => {
    const r = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      reportDir: null,
      operations: ["deepcrawl"],
      only: ["deepcrawl-completes", "deepcrawl-unknown-id", "crawl-batch-urls"],
    });
    expect(r.checks.map((c) => [c.id, c.status])).toEqual([
      ["crawl-batch-urls", "skipped"],
      ["deepcrawl-completes", "passed"],
      ["deepcrawl-unknown-id", "passed"],
    ]);
    const bad = await runConformance({
      target: mock.url,
      apiKey: "KEY",
      reportDir: null,
      operations: ["crawl", "crawll"],
    });
    expect(bad).toMatchObject({ exitCode: 2, error: expect.stringMatching(/unknown operation id\(s\).*crawll/) });
    const cli = await conformInProcess([
      "--target",
      mock.url,
      "--api-key",
      "KEY",
      "--operations",
      "nope",
      "--no-report",
    ]);
    expect(cli.code).toBe(2);
    expect(cli.out).toMatch(/unknown operation id\(s\) in --operations: nope/);
  }, 60_000);

  it("exits 2 when the target is unreachable, refuses the key, or the plan exceeds --max-credits", async () => {
    const run = (o: { target?: string; apiKey?: string; maxCredits?: number }) =>
      runConformance({ target: mock.url, apiKey: "KEY", reportDir: null, ...o });
    expect((await run({ target: "http://127.0.0.1:9" })).exitCode).toBe(2);
    expect((await run({ apiKey: "NOT-A-KEY" })).exitCode).toBe(2);
    const over = await run({ maxCredits: 10 });
    expect(over).toMatchObject({ exitCode: 2, error: expect.stringMatching(/over --max-credits 10/) });
    expect(over.exchanges).toEqual([]); // refused before any request
  });
});
