// examples/edges-client as a client team runs it: `npx plumbline edges -- npm test` in the project (a copy of the
// example with plumbline linked in) exits 1 naming exactly the naive client's failing edges and writes the reports;
// with the careful client (EDGES_CLIENT=careful) it exits 0.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EDGES } from "@plumbline-kit/contract/edges/catalogue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LinkedProject, linkedProject, runNpx } from "./linked-project.ts";
import { ROOT } from "./markdown.ts";

const NAIVE_FAILS = [
  "rate-limited",
  "deepcrawl-failed",
  "task-not-found",
  "trending-description-null",
  "optional-fields-absent",
];

let project: LinkedProject;
beforeAll(() => {
  project = linkedProject("plumbline-edges-example-");
  const example = join(ROOT, "examples", "edges-client");
  for (const dir of ["src", "test"]) cpSync(join(example, dir), join(project.dir, dir), { recursive: true });
  const linked = JSON.parse(readFileSync(join(project.dir, "package.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(example, "package.json"), "utf8"));
  writeFileSync(join(project.dir, "package.json"), JSON.stringify({ ...pkg, devDependencies: linked.devDependencies }));
});
afterAll(() => project?.remove());

describe("examples/edges-client under plumbline edges", () => {
  it("the naive client: exit 1, exactly its failing edges named, the reports written", {
    timeout: 600_000,
  }, async () => {
    const r = await runNpx(project, [
      "plumbline",
      "edges",
      "--jobs",
      "4",
      "--report-dir",
      "reports",
      "--",
      "npm",
      "test",
    ]);
    expect(r.code, r.out).toBe(1);
    const failedLine = /^failed: (.+) \(14 passed, 5 failed, 0 not exercised; /m.exec(r.out);
    expect(failedLine?.[1]?.split(", ").sort(), r.out).toEqual([...NAIVE_FAILS].sort());
    for (const id of NAIVE_FAILS) expect(r.out).toMatch(new RegExp(`^${id} +failed +[1-9]`, "m"));
    const report = JSON.parse(readFileSync(join(project.dir, "reports", "edges.json"), "utf8"));
    const failed = report.edges.filter((e: { verdict: string }) => e.verdict === "failed");
    expect(failed.map((e: { edge: { id: string } }) => e.edge.id).sort()).toEqual([...NAIVE_FAILS].sort());
    expect(report.edges).toHaveLength(EDGES.length);
    expect(readFileSync(join(project.dir, "reports", "edges.junit.xml"), "utf8")).toContain('failures="5"');
    expect(readFileSync(join(project.dir, "reports", "edges.html"), "utf8")).toContain("trending-description-null");
  });

  // the same tests as the naive client's run, started without npm this time (~0.4 CPU-s a run, 20 runs): `npm test`
  // is the run above, and a CMD that is not npm works as well
  it("the careful client: every edge passed, exit 0", { timeout: 600_000 }, async () => {
    const test = ["node", "--test", "test/journey.test.mjs"];
    expect(JSON.parse(readFileSync(join(project.dir, "package.json"), "utf8")).scripts.test).toBe(test.join(" "));
    const r = await runNpx(project, ["plumbline", "edges", "--jobs", "4", "--", ...test], {
      EDGES_CLIENT: "careful",
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`no edge failed (${EDGES.length} passed, 0 failed, 0 not exercised;`);
  });
});
