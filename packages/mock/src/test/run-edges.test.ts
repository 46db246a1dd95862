// runEdges() and `plumbline edges` with small node scripts as the client's command: the baseline gate (exit 2 with
// its output), a verdict per edge (failed, passed, not exercised), the reports, the time limit, --list and --edges.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EDGES } from "@plumbline-kit/contract/edges/catalogue";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../../../../test-support/cli-process.ts";
import { runEdges } from "../edges/run-edges.ts";

const dir = mkdtempSync(join(tmpdir(), "plumbline-edges-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client script: `body` runs with `call(method, path, json)` answering {status, body} (or throwing on a reset). */
function script(name: string, body: string): string[] {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `const call = async (method, path, json) => {
  const res = await fetch(process.env.PLUMBLINE_URL + path, { method,
    headers: { authorization: "Bearer " + process.env.PLUMBLINE_API_KEY, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json) });
  return { status: res.status, body: await res.json() };
};
${body}
`,
  );
  return [process.execPath, file];
}

const HEALTH_ONLY = script(
  "health-only",
  `const r = await call("GET", "/health"); console.log("health", r.status); process.exit(r.status === 200 ? 0 : 1);`,
);

describe("runEdges", () => {
  it("marks every edge not exercised, without running it, when the baseline called none of its operations", async () => {
    const r = await runEdges({ command: HEALTH_ONLY, jobs: 4 });
    expect(r.baseline.passed).toBe(true);
    expect(r.baseline.operations).toEqual(["health"]);
    expect(r.edges.map((e) => e.edge.id)).toEqual(EDGES.map((e) => e.id));
    for (const e of r.edges) {
      expect(e, e.edge.id).toMatchObject({ verdict: "not exercised", ran: false, exitCode: null, alteredCount: 0 });
      expect(e.outputTail).toBe("");
    }
    expect(r.exitCode).toBe(0);
  });

  it("with runAll runs them anyway: the command meets none of them", async () => {
    const edges = ["rate-limited", "zero-results", "upstream-502"];
    const r = await runEdges({ command: HEALTH_ONLY, edges, jobs: 3, runAll: true });
    expect(r.edges.map((e) => e.edge.id)).toEqual(edges);
    for (const e of r.edges) {
      expect(e, e.edge.id).toMatchObject({ verdict: "not exercised", ran: true, exitCode: 0, alteredCount: 0 });
      expect(e.outputTail).toContain("health 200");
    }
    expect(r.exitCode).toBe(0);
  });

  it("fails the edges the command mishandles, passes the others, and writes the reports", async () => {
    const trending = script(
      "trending",
      `const r = await call("POST", "/trending", { search_service: "github", max_results: 3 });
for (const x of r.body.results) console.log(x.title, x.description.length); // a description read as a string`,
    );
    const reportDir = join(dir, "reports");
    const r = await runEdges({
      command: trending,
      edges: ["trending-description-null", "zero-results", "screenshot-503"],
      jobs: 3,
      reportDir,
    });
    const verdicts = Object.fromEntries(r.edges.map((e) => [e.edge.id, e.verdict]));
    expect(verdicts).toEqual({
      "trending-description-null": "failed",
      "zero-results": "passed",
      "screenshot-503": "not exercised",
    });
    // screenshot-503 is not run: the baseline called trending only
    expect(r.baseline.operations).toEqual(["trending"]);
    expect(r.edges.map((e) => e.ran)).toEqual([true, true, false]);
    const failed = r.edges.find((e) => e.verdict === "failed");
    expect(failed?.outputTail).toContain("TypeError");
    expect(failed?.altered).toEqual([
      expect.objectContaining({ method: "POST", url: "/trending", operationId: "trending", status: 200 }),
    ]);
    expect(r.exitCode).toBe(1);

    const json = JSON.parse(readFileSync(join(reportDir, "edges.json"), "utf8"));
    expect(json.exitCode).toBe(1);
    expect(json.edges.map((e: { verdict: string }) => e.verdict)).toEqual(["failed", "passed", "not exercised"]);
    const junit = readFileSync(join(reportDir, "edges.junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuites name="plumbline edges" tests="4" failures="1" errors="0" skipped="1"/);
    expect(junit).toContain("trending-description-null");
    expect(junit).toContain("not exercised, not run: the baseline called none of screenshot");
    const html = readFileSync(join(reportDir, "edges.html"), "utf8");
    expect(html).toContain('<section id="trending-description-null" class="fail">');
    expect(html).toContain("D-trending-description");
  });

  it("stops at a failing baseline: exit 2, its output, no edge run", async () => {
    const failing = script("failing", `console.error("the client's own test failed"); process.exit(3);`);
    const r = await runEdges({ command: failing, jobs: 2 });
    expect(r.exitCode).toBe(2);
    expect(r.baseline).toMatchObject({ passed: false, exitCode: 3 });
    expect(r.baseline.outputTail).toContain("the client's own test failed");
    expect(r.edges).toEqual([]);
  });

  it("stops a run past its time limit and counts it failed", async () => {
    // waits forever once it meets a 429 (the rate-limited edge): the limit, not the script, ends that run
    const hangs = script(
      "hangs-on-429",
      `const r = await call("POST", "/search", { query: "q" });
if (r.status === 429) { console.log("waiting forever"); setInterval(() => {}, 1000); } else console.log("ok", r.status);`,
    );
    // the limit applies to the baseline too, which must finish within it however loaded the machine: 15 s is far
    // past a node script's one call; the edge's run never ends on its own
    const r = await runEdges({ command: hangs, edges: ["rate-limited"], timeoutMs: 15_000 });
    expect(r.baseline.passed).toBe(true);
    expect(r.edges[0]).toMatchObject({ verdict: "failed", timedOut: true, exitCode: 124 });
    expect(r.edges[0]?.outputTail).toContain("waiting forever");
    expect(r.exitCode).toBe(1);
  });

  it("refuses an unknown edge, naming the known ones", async () => {
    await expect(runEdges({ command: HEALTH_ONLY, edges: ["no-such-edge"] })).rejects.toThrow(
      /unknown edge no-such-edge; the edges: rate-limited,/,
    );
  });
});

function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [BIN, "edges", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, out })));
}

describe("plumbline edges", () => {
  it("--list prints every edge with what allows it", async () => {
    const r = await cli(["--list"]);
    expect(r.code).toBe(0);
    for (const e of EDGES) expect(r.out).toContain(`${e.id}\n  ${e.title}`);
    expect(r.out).toContain("allowed by: interface-spec: Trending result and response; D-trending-description");
  });

  it("--edges runs those edges only and prints the table; exit 0 when none failed", async () => {
    const r = await cli(["--edges", "zero-results,upstream-502", "--jobs", "2", "--", ...HEALTH_ONLY]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^edge +verdict +altered +allowed by$/m);
    expect(r.out).toMatch(/^zero-results +not exercised +0 +interface-spec/m);
    expect(r.out).toMatch(/^upstream-502 +not exercised +0 +interface-spec/m);
    expect(r.out).not.toContain("rate-limited");
    expect(r.out).toContain("no edge failed (0 passed, 0 failed, 2 not exercised;");
    expect(r.out).toContain(
      "not run, the baseline called none of their operations: zero-results, upstream-502 (--run-all runs them)",
    );
    const all = await cli(["--edges", "zero-results", "--run-all", "--", ...HEALTH_ONLY]);
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/^ {2}zero-results: not exercised$/m);
    expect(all.out).not.toContain("not run");
  });

  it("bad usage exits 2 with a message", async () => {
    const unknown = await cli(["--edges", "bogus", "--", ...HEALTH_ONLY]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain("Allowed: rate-limited,");
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.out).toContain("give the command to run after --");
  });

  it("a failing baseline exits 2 with its output", async () => {
    const failing = script("failing-cli", `console.error("no such fixture"); process.exit(1);`);
    const r = await cli(["--", ...failing]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("the baseline failed (exit 1)");
    expect(r.out).toContain("no such fixture");
  });
});
