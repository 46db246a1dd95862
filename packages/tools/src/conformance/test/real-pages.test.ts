// The checks that need a target which really fetches pages (skipped against the mock) judged against a stand-in that
// does (real-pages-target.ts: the mock for the platform, the fixture pages really read, screenshots rendered by
// headless Chromium). They pass when the pages are served as they are, which also proves the fixture pages have
// the geometry and facts fixtures/site-facts.ts states, and each fails, alone, when its behaviour is broken.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchHeadlessChromium } from "../../../../../test-support/headless-chromium.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { startFaultProxy } from "./fault-proxy.ts";
import { type Breakage, realPages } from "./real-pages-target.ts";

const REAL_PAGE_CHECKS = [
  "screenshot-full-page",
  "screenshot-selector-crop",
  "screenshot-color-scheme",
  "screenshot-omit-background",
  "extract-values-from-page",
  "deepcrawl-zip-fixture-pages",
];
const ONLY = [
  ...REAL_PAGE_CHECKS,
  "screenshot-image-format",
  "screenshot-pixel-size",
  "extract-results-match-format",
  "extract-openai-wrapper",
  "deepcrawl-zip-valid",
  "deepcrawl-zip-layout",
];

let mock: MockProcess;
let browser: Browser;
beforeAll(async () => {
  [mock, browser] = await Promise.all([
    // the stand-in forwards the fixture URLs (127.0.0.1) to the mock, which refuses loopback targets unless told
    startMockProcess([
      "--key",
      "KEY:100000",
      "--deepcrawl-steps",
      "0,0,100",
      "--rate-limit",
      "0",
      "--allow-private-network",
    ]),
    launchHeadlessChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await mock?.stop();
});

async function run(broken: Breakage = {}, only = ONLY) {
  const proxy = await startFaultProxy(mock.url, realPages(mock.url, browser, broken));
  try {
    return await runConformance({ target: proxy.url, apiKey: "KEY", reportDir: null, only });
  } finally {
    await proxy.close();
  }
}

describe("the real-page checks against a target that fetches the fixture pages", () => {
  it("pass, none skipped, when every page is served as it is", async () => {
    const r = await run();
    const notPassed = r.checks.filter((c) => c.status !== "passed");
    expect(notPassed.map((c) => [c.id, c.status, c.reason ?? c.failures.map((f) => f.message)])).toEqual([]);
    expect(r.checks.map((c) => c.id).sort()).toEqual([...ONLY].sort());
  }, 60_000);

  // each breakage next to the checks that judge the same answers, which must keep passing
  const SHOTS = [
    "screenshot-full-page",
    "screenshot-selector-crop",
    "screenshot-color-scheme",
    "screenshot-omit-background",
  ];
  const CASES: Array<{ broken: Breakage; fails: string; only: string[] }> = [
    { broken: { ignoreFullPage: true }, fails: "screenshot-full-page", only: SHOTS },
    { broken: { ignoreSelector: true }, fails: "screenshot-selector-crop", only: SHOTS },
    { broken: { ignoreColorScheme: true }, fails: "screenshot-color-scheme", only: SHOTS },
    { broken: { ignoreOmitBackground: true }, fails: "screenshot-omit-background", only: SHOTS },
    {
      broken: { wrongPrice: true },
      fails: "extract-values-from-page",
      only: ["extract-results-match-format", "extract-values-from-page"],
    },
    {
      broken: { dropPage: true },
      fails: "deepcrawl-zip-fixture-pages",
      only: ["deepcrawl-zip-valid", "deepcrawl-zip-layout", "deepcrawl-zip-fixture-pages"],
    },
  ];
  for (const c of CASES) {
    it(`fail ${c.fails} alone for ${Object.keys(c.broken)[0]}`, async () => {
      const r = await run(c.broken, c.only);
      expect(r.checks.filter((x) => x.status === "failed").map((x) => x.id)).toEqual([c.fails]);
      expect(r.checks.filter((x) => x.status === "skipped")).toEqual([]);
    }, 60_000);
  }
});
