// The HTML report as a person sees it: opened from disk in headless Chromium (Debian's; browsers cannot be
// downloaded here), it shows its charts, each drawn with data, and loads nothing from anywhere.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchHeadlessChromium } from "../../../../../test-support/headless-chromium.ts";
import { writeLoadReport } from "../report/write-report.ts";
import { sampleReport } from "./sample-report.ts";

const dir = mkdtempSync(join(tmpdir(), "plb-load-html-"));
let browser: Browser;

beforeAll(async () => {
  browser = await launchHeadlessChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the load report in Chromium", () => {
  it("shows its SVG charts, each with drawn data, and requests nothing", async () => {
    const { html } = writeLoadReport(sampleReport(), dir);
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(html).href);

    await expect(page.locator("h1").textContent()).resolves.toMatch(/PASS plumbline load: mixed/);
    const charts = await page.locator("svg.chart").evaluateAll((svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect();
        return {
          name: svg.getAttribute("data-chart"),
          width: box.width,
          height: box.height,
          lines: [...svg.querySelectorAll("path.series")].filter((p) => (p as SVGPathElement).getTotalLength() > 0)
            .length,
          bars: [...svg.querySelectorAll("rect.bar")].filter((r) => (r as SVGRectElement).getBBox().height > 0).length,
        };
      }),
    );
    expect(charts.map((c) => c.name)).toEqual([
      "throughput",
      "latency-over-time",
      "latency-by-operation",
      "flow-deepcrawl",
    ]);
    for (const c of charts) {
      expect(c.width, c.name ?? "").toBeGreaterThan(200);
      expect(c.height, c.name ?? "").toBeGreaterThan(80);
      expect(c.lines + c.bars, c.name ?? "").toBeGreaterThan(0);
    }
    expect(charts[0].lines).toBe(2); // answers and errors per second
    expect(charts[1].lines).toBe(3); // p50, p90, p99
    expect(charts[2].bars).toBe(9); // overall, search, crawl × p50, p95, p99
    expect(await page.locator("table").first().textContent()).toContain("p(99) < 50ms");
    expect(requests).toEqual([pathToFileURL(html).href]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
