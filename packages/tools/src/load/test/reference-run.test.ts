// A short real run against the reference (started through its CLI on a throw-away SQLite store), its crawls and
// sitemaps pointed at the conformance fixture site on 127.0.0.1 through {{fixture}}: the verdict, every status the
// scenario expects, and credit accounting read independently of the tool (balance = start − what it counted).
// The fixture site is test glue here; load/ itself never imports conformance/.
import { fileURLToPath } from "node:url";
import { loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceProcess, startReferenceProcess } from "../../../../../test-support/reference-process.ts";
import { type FixtureServer, startFixtureServer } from "../../conformance/fixtures/fixture-server.ts";
import { renderSummary } from "../render-summary.ts";
import { runLoad } from "../run-load.ts";
import { readScenario } from "../scenario-file.ts";
import { readThresholdSet } from "../threshold-file.ts";

const LENIENT = fileURLToPath(new URL("./fixtures/reference-lenient.json", import.meta.url));
const IMPOSSIBLE = fileURLToPath(new URL("./fixtures/reference-impossible.json", import.meta.url));
const KEY = "RLOAD";
const CREDITS = 1_000_000;
let site: FixtureServer;
let reference: ReferenceProcess;

async function balance(): Promise<number> {
  const r = await fetch(`${reference.url}/usage`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await r.json()) as { usage: number }).usage;
}

beforeAll(async () => {
  site = await startFixtureServer();
  reference = await startReferenceProcess({ keys: [`${KEY}:${CREDITS}`, "WARM:100"], args: ["--rate-limit", "0"] });
  // a warm target (on an account of its own): the reference starts its parse workers at the first crawls that need
  // them (half a second of CPU each), which a 3-second run on a busy machine would otherwise spend measuring
  await Promise.all(
    [1, 2, 3, 4].map(() =>
      fetch(`${reference.url}/crawl`, {
        method: "POST",
        headers: { authorization: "Bearer WARM", "content-type": "application/json" },
        body: JSON.stringify({ url: `${site.url}/` }),
      }).then((r) => r.body?.cancel()),
    ),
  );
}, 60_000);
afterAll(async () => {
  await reference?.stop();
  await site?.close();
});

describe("plumbline load against the reference", () => {
  it("refuses a scenario that needs a fixture site without one, before any traffic", async () => {
    const r = await runLoad({ target: reference.url, apiKey: KEY, scenario: "reference", reportDir: null });
    expect(r).toMatchObject({ ok: false, exitCode: 2, error: expect.stringMatching(/--fixture-url URL/) });
    expect(await balance()).toBe(CREDITS);
  });

  it("runs the reference scenario on the fixture site: passes, and the balance falls by exactly what it counted", async () => {
    const before = await balance();
    const r = await runLoad({
      target: reference.url,
      apiKey: KEY,
      scenario: "reference",
      fixtureUrl: `${site.url}/`,
      durationSeconds: 3,
      // a short warm-up: the parse workers are started already (beforeAll)
      warmupSeconds: 0.5,
      connections: 4,
      thresholds: LENIENT,
      reportDir: null,
    });
    expect(r.ok ? r.report.breaches : r.error).toEqual([]);
    if (!r.ok) return;
    expect(r.exitCode).toBe(0);
    expect(r.report.fixture).toBe(site.url);
    expect(renderSummary(r.report, null)).toMatch(
      /^PASS {2}reference against .*\nfixture site: http:\/\/127\.0\.0\.1:\d+\n/,
    );
    // the reference really fetched the fixture site; what else a short run met (the scenario's rarer requests are
    // picked at random, so a slow machine may send too few to meet each) is what the scenario expects
    const crawl = r.report.operations.crawl;
    expect(crawl.statuses["200"]).toBeGreaterThan(0);
    // 400 the malformed body, 401 the call without a credential, 422 "not a url", 404 and 410 the fixture's pages
    for (const status of Object.keys(crawl.statuses))
      expect(["200", "400", "401", "402", "404", "410", "422"]).toContain(status);
    expect(r.report.operations.sitemap.statuses["200"]).toBeGreaterThan(0);
    expect(r.report.overall.errors).toBe(0);
    expect(r.report.overall.statuses["502"]).toBeUndefined();
    // every key the committed reference budgets name is one this scenario exercises
    const scenario = readScenario("reference");
    const ops = new Set(scenario.ok ? scenario.scenario.requests.map((e) => e.operation) : []);
    const ids = (await loadContract()).contractOperations.map((o) => o.operationId);
    const committed = readThresholdSet("reference", "reference", ids);
    expect(committed.ok).toBe(true);
    for (const { key } of committed.ok ? committed.set.entries : [])
      expect(key === "overall" || ops.has(key), key).toBe(true);
    // the mix is picked at random (seeded): a short run on a slow machine may not reach its rarest operations, so
    // what it measured is of the scenario, and its two main operations are measured
    for (const id of Object.keys(r.report.operations)) expect(ops.has(id), id).toBe(true);
    for (const id of ["crawl", "sitemap"]) expect(r.report.operations[id]?.requests, id).toBeGreaterThan(0);

    // credit accounting, read here and by the tool: start − charges of the successful calls it counted
    const credits = r.report.credits;
    expect(credits).toMatchObject({ checked: true, pass: true, unresolved: 0, startBalance: before });
    expect(credits.counted).toBeGreaterThan(crawl.statuses["200"]); // batches and charged 404/410 add to it
    expect(await balance()).toBe(before - (credits.counted as number));
  }, 90_000);

  it("fails by name when a budget breaks, the accounting still exact", async () => {
    const before = await balance();
    const r = await runLoad({
      target: reference.url,
      apiKey: KEY,
      scenario: "reference",
      fixtureUrl: site.url,
      durationSeconds: 1,
      warmupSeconds: 0,
      connections: 2,
      thresholds: IMPOSSIBLE,
      reportDir: null,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.exitCode).toBe(1);
    expect(r.report.breaches).toEqual([expect.stringMatching(/^crawl: p\(50\) < 0\.001ms \(actual [\d.]+ ms\)$/)]);
    expect(r.report.thresholds.find((t) => t.key === "overall")?.status).toBe("passed");
    expect(r.report.credits).toMatchObject({ checked: true, pass: true });
    expect(await balance()).toBe(before - (r.report.credits.counted as number));
  }, 90_000);
});
