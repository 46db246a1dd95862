// Report generation (load.json holds every figure, report.html is self-contained with its charts) and the
// baseline comparison.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareWithBaseline, incomparable } from "../baseline-compare.ts";
import { htmlReport } from "../report/report-html.ts";
import { REPORT_FILES, writeLoadReport } from "../report/write-report.ts";
import { sampleReport } from "./sample-report.ts";

const dir = mkdtempSync(join(tmpdir(), "plb-load-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("writeLoadReport", () => {
  it("writes load.json with every figure and report.html beside it", () => {
    const report = sampleReport();
    const files = writeLoadReport(report, join(dir, "run"));
    expect(files.json).toBe(join(dir, "run", REPORT_FILES.json));
    expect(JSON.parse(readFileSync(files.json, "utf8"))).toEqual(report);
    expect(readFileSync(files.html, "utf8")).toBe(htmlReport(report));
  });

  it("the page is self-contained: inline SVG charts, no script, no external resource", () => {
    const html = htmlReport(sampleReport());
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
    const charts = html.match(/<svg class="chart" data-chart="([^"]+)"/g) ?? [];
    expect(charts.map((c) => c.replace(/.*data-chart="([^"]+)"/, "$1"))).toEqual([
      "throughput",
      "latency-over-time",
      "latency-by-operation",
      "flow-deepcrawl",
    ]);
    // every line has points and every bar a height
    for (const d of html.matchAll(/<path class="series"[^>]* d="([^"]*)"/g))
      expect(d[1]).toMatch(/^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+)+$/);
    expect(html).toContain('class="bar"');
    expect(html).toContain("a &lt;mix&gt; &amp; more");
  });

  it("shows the verdict and names what broke", () => {
    const failing = { ...sampleReport(), pass: false, breaches: ["overall: p(99) < 5ms (actual 9.2 ms)"] };
    const html = htmlReport(failing);
    expect(html).toContain('<span class="verdict fail">FAIL</span>');
    expect(html).toContain("overall: p(99) &lt; 5ms (actual 9.2 ms)");
    expect(htmlReport(sampleReport())).toContain('<span class="verdict pass">PASS</span>');
  });
});

describe("compareWithBaseline", () => {
  const tolerance = { maxRegressionPercent: 20, minDeltaMs: 1 };

  it("passes a run within the tolerance", () => {
    const r = compareWithBaseline(sampleReport(1), sampleReport(1.1), "base.json", tolerance);
    expect(r.pass).toBe(true);
    expect(r.outcomes.length).toBeGreaterThan(10);
  });

  it("fails on latency grown beyond the percentage, per key and metric", () => {
    const r = compareWithBaseline(sampleReport(1), sampleReport(1.5), "base.json", tolerance);
    expect(r.pass).toBe(false);
    const regressed = r.outcomes.filter((o) => o.regressed).map((o) => `${o.key} ${o.metric}`);
    expect(regressed).toContain("overall p99");
    expect(regressed).toContain("flow:deepcrawl p95");
    // +50% of 1.8 ms is under the 1 ms noise floor: not a regression
    expect(regressed).not.toContain("overall med");
  });

  it("fails on throughput fallen beyond the percentage", () => {
    const slower = sampleReport();
    slower.overall = { ...slower.overall, rps: slower.overall.rps * 0.7 };
    const r = compareWithBaseline(sampleReport(), slower, "base.json", tolerance);
    expect(r.outcomes.find((o) => o.key === "overall" && o.metric === "rps")).toMatchObject({
      regressed: true,
      changePercent: -30,
    });
  });

  it("refuses to compare different scenarios or loop kinds", () => {
    expect(
      incomparable(sampleReport(), { scenario: { ...sampleReport().scenario, name: "search" }, mode: "closed" }),
    ).toMatch(/scenario "mixed", this run "search"/);
    expect(incomparable(sampleReport(), { scenario: sampleReport().scenario, mode: "open" })).toMatch(/closed loop/);
  });
});
