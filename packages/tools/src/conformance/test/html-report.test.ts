// The HTML report as a person uses it (issue 4): it renders in headless Chromium, lists the failures with a curl
// command, and its status filters and search box work. Chromium is Debian's (browsers cannot be downloaded here).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchHeadlessChromium } from "../../../../../test-support/headless-chromium.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { REPORT_FILES } from "../report/write-reports.ts";
import { type RunningProxy, startFaultProxy } from "./fault-proxy.ts";

let mock: MockProcess;
let proxy: RunningProxy;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), "plb-conform-html-"));

beforeAll(async () => {
  mock = await startMockProcess(["--key", "KEY:100000", "--rate-limit", "0"]);
  // one broken behaviour, so the page has a failure to show next to passes
  proxy = await startFaultProxy(mock.url, {
    rewrite: (_req, res) => ({ ...res, headers: { ...res.headers, "x-request-id": undefined } }),
  });
  const result = await runConformance({
    target: proxy.url,
    apiKey: "KEY",
    // and a check skipped for a missing precondition (no --broke-api-key), so the page has a skip tally to show
    only: [
      "health-status-version",
      "auth-health-open",
      "x-request-id",
      "discovery-openapi-json",
      "billing-zero-balance-402",
    ],
    reportDir: dir,
  });
  expect(result.summary.failed).toBeGreaterThan(0);
  browser = await launchHeadlessChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the conformance HTML report in Chromium", () => {
  it("renders the summary and lists the failure with a curl command that reproduces it", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(dir, REPORT_FILES.html)).href);
    const failed = page.locator('details.check[data-status="failed"]');
    expect(await failed.count()).toBeGreaterThan(0);
    const text = (await failed.first().textContent()) ?? "";
    expect(text).toContain("x-request-id");
    expect(text).toMatch(/curl /);
    expect(await page.locator('details.check[data-status="passed"]').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("counts the skipped checks by kind and says which fail the run (issue 27: skips cannot hide)", async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(dir, REPORT_FILES.html)).href);
    const row = page.locator("table.summary tr", { hasText: "skipped: broke-key" });
    expect(await row.count()).toBe(1);
    const text = (await row.textContent()) ?? "";
    expect(text).toMatch(/1 check: .*--broke-api-key/);
    expect(text).toContain("fails the run: --allow-skipped broke-key accepts it");
    await page.close();
  });

  it("filters by status and by text", async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(dir, REPORT_FILES.html)).href);
    const visible = (status: string) => page.locator(`details.check[data-status="${status}"]:visible`).count();
    await page.click('button[data-filter="failed"]');
    expect(await visible("failed")).toBeGreaterThan(0);
    expect(await visible("passed")).toBe(0);
    await page.click('button[data-filter="passed"]');
    expect(await visible("failed")).toBe(0);
    expect(await visible("passed")).toBeGreaterThan(0);
    await page.click('button[data-filter="all"]');
    await page.fill("#q", "x-request-id");
    expect(await page.locator("details.check:visible").count()).toBe(1);
    await page.close();
  });
});
