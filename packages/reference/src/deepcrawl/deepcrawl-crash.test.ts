// Crash safety (issue 11): the reference process is killed with SIGKILL in the middle of a deepcrawl; restarted on
// the same data directory, it takes the task over once the lease expires, resumes without fetching again what was
// already saved, and completes it: charged once, one package, every page in it.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, startCliProcess } from "../../../../test-support/cli-process.ts";
import { balance, download, pollStatus, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { phraseOf, startTestSite, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

const KEY = "crash-test-key";
const PAGES = 30;
let site: TestSite;
let dir: string;
const running: CliProcess[] = [];
let restarted: RunningReference | undefined;

// the server killed is a `plumbline reference` process; one parse thread is plenty for two pages at a time
function startRef(): Promise<CliProcess> {
  return startCliProcess(
    [
      "reference",
      "--port",
      "0",
      "--allow-private-network",
      "--data-dir",
      dir,
      "--key",
      `${KEY}:100`,
      "--deepcrawl-concurrency",
      "2",
      "--deepcrawl-delay-ms",
      "0",
      "--deepcrawl-lease-seconds",
      "1",
      "--parse-threads",
      "1",
    ],
    "reference",
  ).then((p) => {
    running.push(p);
    return p;
  });
}

/**
 * The restart: the same settings as startRef's flags, in this process (nothing kills it, and a `plumbline reference`
 * process costs ~3 CPU-s to start; what is judged is what it finds in the data directory and does with it).
 */
async function restartRef(): Promise<RunningReference> {
  restarted = await startReference({
    port: 0,
    allowPrivateNetwork: true,
    dataDir: dir,
    keys: [{ key: KEY, credits: 100 }],
    deepcrawlSettings: { concurrency: 2, hostDelayMs: 0, leaseMs: 1000 },
    parsing: { threads: 1 },
  });
  return restarted;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-crash-"));
  site = await startTestSite({ pages: PAGES, delayMs: 150 });
});
afterAll(async () => {
  await restarted?.close();
  for (const p of running) await p.stop();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const zips = (d: string): string[] =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? zips(join(d, e.name)) : e.name.endsWith(".zip") ? [join(d, e.name)] : [],
  );

describe("a deepcrawl survives kill -9 of its server", () => {
  it("is taken over after the restart, resumed, charged once and packaged once", { timeout: 120_000 }, async () => {
    const first = await startRef();
    const res = await startDeepcrawl(first.url, KEY, { url: `${site.url}/` });
    expect(res.status).toBe(202);
    const { taskId } = (await res.json()) as { taskId: string };
    // polled every 100 ms: the crawl takes 2 s and more (30 pages 150 ms each, two at a time)
    const mid = await pollUntil(
      first.url,
      taskId,
      30_000,
      KEY,
      (s) => /Crawling: ([5-9]|\d\d) of/.test(s.message ?? ""),
      100,
    );
    expect(mid.last.status).toBe("processing");
    // the server itself, not the thin parent `plumbline reference` keeps (bin/relaunch.js), which ends as it did
    process.kill(first.serverPid(), "SIGKILL");
    const [, signal] = await new Promise<unknown[]>((r) => first.child.once("exit", (...end) => r(end)));
    expect(signal).toBe("SIGKILL");
    const fetchedBefore = [...site.hits.entries()].filter(([p]) => p.startsWith("/p/")).length;

    const second = await restartRef();
    // the killed worker's lease still holds for up to a second; then the task moves on, never backwards
    expect((await pollStatus(second.url, taskId, KEY)).status).toBe("processing");
    // every half second: status polls count against the account's rate limit (200 a minute), which polls every 50 ms
    // reached on a slow machine (a 429 is a state seen)
    const { last, seen } = await pollUntil(second.url, taskId, 60_000, KEY, undefined, 500);
    expect(seen).toEqual(["processing", "completed"]);
    expect(last.message).toBe(`${PAGES} pages packaged`);

    const { manifest, documents } = await download(last.zipUrl as string);
    const pages = (manifest as { pages: Array<{ url: string; path: string }> }).pages;
    expect(pages.map((p) => p.url).sort()).toEqual(site.pagePaths.map((p) => `${site.url}${p}`).sort());
    for (const [i, p] of site.pagePaths.entries()) {
      const entry = pages.find((x) => x.url === `${site.url}${p}`);
      expect(documents.get(entry?.path as string)).toContain(phraseOf(i));
    }
    // resumed, not restarted: only the pages in flight at the kill were fetched twice
    const twice = [...site.hits.entries()].filter(([p, n]) => p.startsWith("/p/") && n > 1).map(([p]) => p);
    expect(fetchedBefore).toBeGreaterThanOrEqual(5);
    expect(twice.length).toBeLessThanOrEqual(2);
    expect(await balance(second.url, KEY)).toBe(80);
    expect(zips(join(dir, "packages"))).toHaveLength(1);
  });
});
