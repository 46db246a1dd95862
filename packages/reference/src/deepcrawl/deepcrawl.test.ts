// The reference's deepcrawl end to end over HTTP (issue 11 "POST /deepcrawl and GET /deepcrawl/status/{taskId}"):
// a 200+ page generated site crawled in both modes, every page in the zip with its text; robots.txt obeyed; limits
// that stop a crawl early and say so in the manifest; signed zipUrls that expire and refuse tampering.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contract, type JsonSchema, loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, download, pollStatus, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { phraseOf, startTestSite, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

const KEY = "deepcrawl-test-key";
const PAGES = 210;
const CRAWL_MS = 120_000;
// a status poll costs both sides ~3 ms of CPU (a worker's look for tasks ~1 ms) and a crawl here takes seconds, tens on
// a loaded machine; status polls also count against the account's rate limit (200 a minute, shared by the instances
// on this database), which polls every 50 ms reached within 10 s: 150 a minute leaves room for the other calls
const POLL_MS = 400;
const MAX_BYTES = 40_000;
let site: TestSite;
let small: TestSite;
let ref: RunningReference;
let dir: string;
let contract: Contract;
const fed: string[] = [];

async function boot(extra: Parameters<typeof startReference>[0] = {}) {
  return startReference({
    port: 0,
    dataDir: dir,
    keys: [{ key: KEY, credits: 1000 }],
    allowPrivateNetwork: true,
    contract,
    // what is judged here is the crawl, not the threads' priority (parse-pool.test.ts judges that): at nice 19 the
    // parse threads get ~1.5 % of a core beside a test run's other processes, and a 25-page crawl took over a minute
    // in a fresh-clone .ci/run once this file ran beside the heaviest ones. One parse thread per instance: each worker
    // started costs its load (~1 CPU-s), and a second one adds no throughput on a test run's busy cores
    parsing: { nice: 0, threads: 1 },
    // pollMs: how soon a task started on another instance is found (one here: the expired-link test's)
    deepcrawlSettings: { hostDelayMs: 0, concurrency: 8, pollMs: POLL_MS, ...extra.deepcrawlSettings },
    ...extra,
  });
}

beforeAll(async () => {
  contract = await loadContract();
  dir = mkdtempSync(join(tmpdir(), "plumbline-deepcrawl-"));
  site = await startTestSite({ pages: PAGES });
  small = await startTestSite({ pages: 12 });
  ref = await boot({ onDeepcrawlPage: async (p) => void fed.push(p.url) });
});
afterAll(async () => {
  await ref?.close();
  await site?.close();
  await small?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function crawl(body: object, r = ref) {
  const res = await startDeepcrawl(r.url, KEY, body);
  expect(res.status).toBe(202);
  const { taskId, status } = (await res.json()) as { taskId: string; status: string };
  expect(status).toBe("queued");
  // a hang detector: the 210-page crawls take seconds alone and several times that on a loaded machine
  const { last, seen } = await pollUntil(r.url, taskId, CRAWL_MS, KEY, undefined, POLL_MS);
  return { taskId, last, seen };
}

type Manifest = {
  taskId: string;
  type: string;
  limitReached: string | null;
  pages: Array<{ url: string; path: string | null; status: number; bytes: number }>;
};

describe("reference deepcrawl", () => {
  for (const type of ["sitemap", "all"] as const) {
    it(
      `packages every page of a ${PAGES}-page site (${type}), obeying robots.txt`,
      async () => {
        const before = await balance(ref.url, KEY);
        const { taskId, last, seen } = await crawl({ url: `${site.url}/`, type });
        expect(last).toMatchObject({ status: "completed", success: true, error: null });
        expect(seen.indexOf("completed")).toBe(seen.length - 1);
        expect(await balance(ref.url, KEY)).toBe(before - 20);
        const { res, manifest, documents } = await download(last.zipUrl as string);
        expect(res.headers.get("content-type")).toBe("application/zip");
        const m = manifest as Manifest;
        expect(
          contract.validators.compile(contract.document.components?.schemas?.DeepcrawlManifest as JsonSchema)(m),
        ).toBeNull();
        expect(m).toMatchObject({ taskId, type, limitReached: null });
        const urls = new Set(m.pages.map((p) => p.url));
        for (const [i, path] of site.pagePaths.entries()) {
          const entry = m.pages.find((p) => p.url === `${site.url}${path}`);
          expect(entry, path).toMatchObject({ status: 200 });
          expect(documents.get(entry?.path as string)).toContain(phraseOf(i));
        }
        expect(m.pages.length).toBe(type === "all" ? PAGES + 1 : PAGES); // `all` also keeps the home page
        expect(urls.size).toBe(m.pages.length);
        expect([...urls].some((u) => u.includes("/private/"))).toBe(false);
        expect(site.hits.get("/private/secret")).toBeUndefined();
        expect([...urls].some((u) => u.includes("elsewhere.invalid"))).toBe(false);
        expect(documents.size).toBe(m.pages.length);
        expect(last.message).toBe(`${m.pages.length} pages packaged`);
      },
      CRAWL_MS + 30_000,
    );
  }

  it("feeds every fetched page to the onPage hook", () => {
    expect(new Set(fed).size).toBeGreaterThanOrEqual(PAGES);
  });

  it("keeps a finished task finished: later polls report the same state and a link to the same package", async () => {
    const { taskId, last } = await crawl({ url: `${small.url}/`, type: "all" });
    const first = await download(last.zipUrl as string);
    for (let i = 0; i < 3; i++) {
      const again = await pollStatus(ref.url, taskId, KEY);
      expect(again).toMatchObject({ status: "completed", r2Key: last.r2Key });
      expect((await download(again.zipUrl as string)).zip.equals(first.zip)).toBe(true);
    }
  });

  it("refuses a tampered or foreign zipUrl with 404 in the error shape", async () => {
    const { taskId, last } = await crawl({ url: `${small.url}/` });
    const link = last.zipUrl as string;
    const other = await crawl({ url: `${small.url}/p/3`, type: "all" });
    const bad = [
      link.replace(/signature=(.)/, (_m, c: string) => `signature=${c === "A" ? "B" : "A"}`),
      link.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1}`),
      link.replace(taskId, other.taskId),
      link.split("?")[0],
    ];
    for (const url of bad) {
      const r = await fetch(url);
      expect(r.status, url).toBe(404);
      expect(await r.json()).toMatchObject({ ok: false, code: "PLB_TASK_NOT_FOUND", message: expect.any(String) });
    }
    expect((await fetch(link)).status).toBe(200);
  });

  it("refuses an expired zipUrl with 404; a new poll signs a fresh link", async () => {
    // this instance's clock is moved past the link's life instead of waiting it out, and the life is long (60 s) so
    // the fresh link stays valid however slowly this machine fetches it. It signs and serves the links and runs no
    // task (maxTasks 0): the long-lived instance, on the same database, runs the crawl started here, so this one
    // loads no parser
    let ahead = 0;
    const short = await boot({
      port: 0,
      clock: { now: () => Date.now() + ahead },
      deepcrawlSettings: { linkTtlMs: 60_000, maxTasks: 0 },
    });
    try {
      const { taskId, last } = await crawl({ url: `${small.url}/` }, short);
      ahead = 61_000;
      const expired = await fetch(last.zipUrl as string);
      expect(expired.status).toBe(404);
      expect(await expired.json()).toMatchObject({ ok: false, error: "Not Found", code: "PLB_TASK_NOT_FOUND" });
      const fresh = await pollStatus(short.url, taskId, KEY);
      expect((await fetch(fresh.zipUrl as string)).status).toBe(200);
      // the secret is in the database: the long-lived instance accepts links the short one signed
      expect(
        (await fetch(`${ref.url}${new URL(fresh.zipUrl as string).pathname}${new URL(fresh.zipUrl as string).search}`))
          .status,
      ).toBe(200);
    } finally {
      await short.close();
    }
  });

  it("completes with what it has when a limit is reached, and says which in the manifest", {
    timeout: CRAWL_MS + 30_000,
  }, async () => {
    // one instance for the pages and the bytes limits: 25 of `site`'s pages come to ~12 KB of documents, far under its
    // bytes limit, while `heavy`'s pages (~11 KB each) reach it within four, far under its pages limit
    const heavy = await startTestSite({ pages: 12, fillerWords: 2000 });
    const limited = await boot({
      deepcrawlSettings: { limits: { maxPages: 25, maxBytes: MAX_BYTES }, hostDelayMs: 0, pollMs: POLL_MS },
    });
    try {
      for (const type of ["sitemap", "all"] as const) {
        const { last } = await crawl({ url: `${site.url}/`, type }, limited);
        expect(last.status).toBe("completed");
        expect(last.message).toContain("pages limit");
        const m = (await download(last.zipUrl as string)).manifest as Manifest;
        expect(m.limitReached).toBe("pages");
        expect(m.pages).toHaveLength(25);
      }
      const { last } = await crawl({ url: `${heavy.url}/` }, limited);
      const m = (await download(last.zipUrl as string)).manifest as Manifest;
      expect(m.limitReached).toBe("bytes");
      expect(m.pages.length).toBeGreaterThan(0);
      expect(m.pages.reduce((a, p) => a + p.bytes, 0)).toBeLessThanOrEqual(MAX_BYTES);
    } finally {
      await limited.close();
      await heavy.close();
    }
    const brief = await boot({
      deepcrawlSettings: { limits: { maxDurationMs: 300 }, hostDelayMs: 100, pollMs: POLL_MS },
    });
    try {
      const { last } = await crawl({ url: `${small.url}/` }, brief);
      const m = (await download(last.zipUrl as string)).manifest as Manifest;
      expect(m.limitReached).toBe("duration");
      expect(m.pages.length).toBeLessThan(12);
    } finally {
      await brief.close();
    }
  });

  it("fails a task whose robots.txt disallows everything, and refuses a literal private host at once", async () => {
    const closed = await startTestSite({ pages: 3, robots: "User-agent: *\nDisallow: /\n" });
    try {
      const { last } = await crawl({ url: `${closed.url}/` });
      expect(last).toMatchObject({ status: "failed", success: false, zipUrl: null });
      expect(last.error).toMatch(/robots\.txt disallows/);
      expect(closed.hits.get("/p/0")).toBeUndefined();
    } finally {
      await closed.close();
    }
    const res = await startDeepcrawl(ref.url, KEY, { url: "http://169.254.169.254/latest/meta-data/" });
    expect(res.status).toBe(400);
  });
});
