// POST /crawl and POST /sitemap through the reference server, judged twice: by direct assertions (billing of
// 404/410, the SSRF guard at the HTTP boundary) and by the conformance suite's semantic checks, which need a
// target that really fetches pages (the mock only gets them skipped).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformance } from "@plumbline-kit/tools/conformance/index";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningReference, startReference } from "../start-reference.ts";
import { ARTICLE_HTML, MARKERS } from "./fixture-pages.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";

const dirs: string[] = [];
let open: RunningReference;
let guarded: RunningReference;
let site: FixtureSite;

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;

async function start(allowPrivateNetwork: boolean, databaseUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-crawl-"));
  dirs.push(dir);
  return startReference({
    port: 0,
    dataDir: dir,
    databaseUrl,
    allowPrivateNetwork,
    keys: [{ key: "k", credits: 1000 }],
    rateLimits: { perAccount: 0 },
  });
}

async function post(ref: RunningReference, path: string, body: unknown) {
  const res = await fetch(`${ref.url}${path}`, {
    method: "POST",
    headers: { authorization: "Bearer k", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const usage = async (ref: RunningReference) =>
  ((await (await fetch(`${ref.url}/usage`, { headers: { authorization: "Bearer k" } })).json()) as { usage: number })
    .usage;

beforeAll(async () => {
  site = await serveSite({
    "/article": { body: ARTICLE_HTML },
    "/gone": { status: 410, body: "<h1>Gone</h1>" },
  });
  open = await start(true);
  guarded = await start(false);
}, 60_000);

afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await site?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the reference's crawl and sitemap", () => {
  it("crawls a page into Markdown without its boilerplate, charging one crawl", async () => {
    const before = await usage(open);
    const r = await post(open, "/crawl", { url: `${site.url}/article` });
    expect(r.status).toBe(200);
    const content = (r.body.results as { content: string }).content;
    expect(content).toMatch(/^# /m);
    for (const marker of MARKERS) expect(content).not.toContain(marker);
    expect(before - (await usage(open))).toBe(1);
  });

  it("answers 404 and 410 targets with 404 and 410, charged (D-charging)", async () => {
    const before = await usage(open);
    expect((await post(open, "/crawl", { url: `${site.url}/missing` })).status).toBe(404);
    expect((await post(open, "/crawl", { url: `${site.url}/gone` })).status).toBe(410);
    expect(before - (await usage(open))).toBe(2);
  });

  it("refuses loopback targets without --allow-private-network, uncharged", async () => {
    const before = await usage(guarded);
    const r = await post(guarded, "/crawl", { url: `${site.url}/article` });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ok: false });
    expect((await post(guarded, "/sitemap", { url: `${site.url}/article` })).status).toBe(400);
    expect(await usage(guarded)).toBe(before);
    expect(site.hits.filter((h) => h === "/article")).toHaveLength(1); // only the open reference fetched it
  });

  for (const db of ["sqlite", "postgres"] as const) {
    it.skipIf(db === "postgres" && !PG)(
      `never overdraws under parallel paid calls, charging exactly the successes (${db})`,
      async () => {
        const ref = db === "sqlite" ? open : await start(true, PG);
        try {
          const { key } = await ref.accounts.createAccount({ credits: 10 });
          const calls = await Promise.all(
            Array.from({ length: 30 }, () =>
              fetch(`${ref.url}/crawl`, {
                method: "POST",
                headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                body: JSON.stringify({ url: `${site.url}/article` }),
              }).then((r) => r.status),
            ),
          );
          expect(calls.filter((s) => s === 200)).toHaveLength(10);
          expect(calls.filter((s) => s === 402)).toHaveLength(20);
          const left = await (await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
          expect(left).toMatchObject({ usage: 0 });
        } finally {
          if (ref !== open) await ref.close();
        }
      },
      60_000,
    );
  }

  it("passes the conformance suite's semantic crawl and sitemap checks", async () => {
    const result = await runConformance({
      target: open.url,
      apiKey: "k",
      only: [
        "crawl-readable-text",
        "crawl-target-status",
        "sitemap-follows-robots",
        "sitemap-fallback-links",
        "sitemap-type-all",
      ],
      reportDir: null,
    });
    const statuses = Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
    expect(
      statuses,
      JSON.stringify(
        result.checks.filter((c) => c.status !== "passed"),
        null,
        1,
      ),
    ).toEqual({
      "crawl-readable-text": "passed",
      "crawl-target-status": "passed",
      "sitemap-follows-robots": "passed",
      "sitemap-fallback-links": "passed",
      "sitemap-type-all": "passed",
    });
  }, 60_000);
});
