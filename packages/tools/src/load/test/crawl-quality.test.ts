// `plumbline bench crawl-quality` end to end: the command starts the reference itself and crawls the committed
// fixture set (4 benchmark pages, 2 synthetic) through POST /crawl; the figures it prints must hold the committed
// floors and agree with its own per-page scores. A stand-in target shows how the bench treats a target: the pages
// as served (charset, gzip), the key, a 429 honoured for its Retry-After, a floor breach (exit 1), a refused key
// and a broken dataset (exit 2).
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { aggregate } from "@plumbline-kit/bench/load/article-metric";
import { benchCrawlQuality, type CrawlQualityResult } from "@plumbline-kit/bench/load/crawl-quality-bench";
import { main } from "@plumbline-kit/cli/cli";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../../../../test-support/cli-process.ts";

const DATA = fileURLToPath(new URL("./fixtures/article-extraction", import.meta.url));
const FLOOR = JSON.parse(readFileSync(`${DATA}/floor.json`, "utf8")) as Record<"f1" | "precision" | "recall", number>;

describe("bench crawl-quality against the reference it starts", () => {
  it("scores the fixture set at or above its committed floors, figures consistent with the pages", async () => {
    // one crawl in flight: the reference then starts one parse thread, not one per core (each compiles its parser)
    const args = ["bench", "crawl-quality", "--data", DATA, "--floor", `${DATA}/floor.json`, "--concurrency", "1"];
    const run = await runCli([...args, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout) as CrawlQualityResult;
    expect(r).toMatchObject({ startedReference: true, failed: 0, pass: true, breaches: [], floor: FLOOR });
    expect(r.pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // the printed figures are the macro averages of the per-page scores
    const again = aggregate(r.pages);
    expect(r.figures.pages).toBe(6);
    expect(r.figures.precision).toBeCloseTo(again.precision, 12);
    expect(r.figures.recall).toBeCloseTo(again.recall, 12);
    expect(r.figures.f1).toBeCloseTo(again.f1, 12);
    for (const k of ["f1", "precision", "recall"] as const) expect(r.figures[k]).toBeGreaterThanOrEqual(FLOOR[k]);
    expect(r.worst.map((p) => p.f1)).toEqual([...r.pages.map((p) => p.f1)].sort((a, b) => a - b));
    // the synthetic story: gallery, byline, share bar, related block, newsletter, bio and comments all gone, the
    // table, list, quote and code kept (what remains of precision is the title heading the content opens with)
    const story = r.pages.find((p) => p.id === "synthetic-harbour-gallery");
    expect(story?.recall).toBeGreaterThan(0.97);
    expect(story?.precision).toBeGreaterThan(0.94);
  }, 120_000);
});

interface StandIn {
  url: string;
  calls: Array<{ at: number; headers: IncomingHttpHeaders; body: { url: string } }>;
  pages: Array<{ url: string; status: number; type: string | null; encoding: string | null }>;
  server: Server;
}

/** A target that answers 429 (Retry-After: 1) once, then fetches each page and returns no text; or refuses keys. */
async function standIn(mode: "throttle-once" | "refuse"): Promise<StandIn> {
  const s = { calls: [], pages: [] } as unknown as StandIn;
  s.server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => {
      raw += c;
    });
    req.on("end", async () => {
      const body = JSON.parse(raw) as { url: string };
      s.calls.push({ at: Date.now(), headers: req.headers, body });
      res.setHeader("content-type", "application/json");
      if (mode === "refuse") return res.writeHead(401).end('{"error":{"code":"PLB_UNAUTHORIZED"}}');
      if (s.calls.length === 1) return res.writeHead(429, { "retry-after": "1" }).end("{}");
      const page = await fetch(body.url, { headers: { "accept-encoding": "gzip" } });
      await page.arrayBuffer();
      s.pages.push({
        url: body.url,
        status: page.status,
        type: page.headers.get("content-type"),
        encoding: page.headers.get("content-encoding"),
      });
      res.end(JSON.stringify({ crawlParameters: body, results: { title: "", link: body.url, content: "" } }));
    });
  });
  await new Promise<void>((r) => s.server.listen(0, "127.0.0.1", () => r()));
  s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
  return s;
}

let target: StandIn | undefined;
afterEach(async () => {
  const s = target?.server;
  target = undefined;
  if (s) await new Promise((r) => s.close(r));
});

describe("bench crawl-quality against a given target", () => {
  it("serves the pages as published, sends the key, waits out a 429 and fails below a floor (exit 1)", async () => {
    target = await standIn("throttle-once");
    const run = await benchCrawlQuality({
      data: DATA,
      target: target.url,
      apiKey: "KEY-1",
      concurrency: 1,
      floor: { f1: 0.5 },
    });
    if (!run.ok) throw new Error(run.error);
    expect(run.exitCode).toBe(1);
    expect(run.result).toMatchObject({ startedReference: false, pass: false, failed: 0 });
    expect(run.result.breaches).toEqual(["f1 0.0000 < 0.5"]);
    expect(run.result.figures).toEqual({ f1: 0, precision: 0, recall: 0, pages: 6 });
    expect(target.calls).toHaveLength(7);
    expect(target.calls[1].at - target.calls[0].at).toBeGreaterThanOrEqual(950);
    expect(target.calls.every((c) => c.headers.authorization === "Bearer KEY-1")).toBe(true);
    expect(target.pages).toHaveLength(6);
    for (const p of target.pages) expect(p).toMatchObject({ status: 200, encoding: "gzip" });
    const latin = target.pages.find((p) => p.url.endsWith("/synthetic-latin1-jsonld.html"));
    expect(latin?.type).toBe("text/html; charset=iso-8859-1");
    expect(target.pages.filter((p) => p.type === "text/html; charset=utf-8")).toHaveLength(5);
  }, 90_000);

  it("cannot run (exit 2) with a refused key, a broken dataset folder, or a target without a key", async () => {
    target = await standIn("refuse");
    expect(await benchCrawlQuality({ data: DATA, target: target.url, apiKey: "BAD" })).toMatchObject({
      ok: false,
      exitCode: 2,
      error: expect.stringMatching(/refused the API key \(401\)/),
    });
    expect(await benchCrawlQuality({ data: `${DATA}/html` })).toMatchObject({
      ok: false,
      exitCode: 2,
      error: expect.stringMatching(/has no ground-truth\.json/),
    });
    expect(await benchCrawlQuality({ data: DATA, target: target.url })).toMatchObject({
      exitCode: 2,
      error: "--target needs --api-key",
    });
    expect(await main(["bench", "crawl-quality"])).toBe(2);
  });
});
