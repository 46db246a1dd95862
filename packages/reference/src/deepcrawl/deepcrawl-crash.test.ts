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

const KEY = "crash-test-key";
const PAGES = 30;
let site: TestSite;
let dir: string;
const running: CliProcess[] = [];

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
    ],
    "reference",
  ).then((p) => {
    running.push(p);
    return p;
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-crash-"));
  site = await startTestSite({ pages: PAGES, delayMs: 150 });
});
afterAll(async () => {
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
    const mid = await pollUntil(first.url, taskId, 30_000, KEY, (s) =>
      /Crawling: ([5-9]|\d\d) of/.test(s.message ?? ""),
    );
    expect(mid.last.status).toBe("processing");
    // the server itself, not the thin parent `plumbline reference` keeps (bin/relaunch.js), which ends as it did
    process.kill(first.serverPid(), "SIGKILL");
    const [, signal] = await new Promise<unknown[]>((r) => first.child.once("exit", (...end) => r(end)));
    expect(signal).toBe("SIGKILL");
    const fetchedBefore = [...site.hits.entries()].filter(([p]) => p.startsWith("/p/")).length;

    const second = await startRef();
    // the killed worker's lease still holds for up to a second; then the task moves on, never backwards
    expect((await pollStatus(second.url, taskId, KEY)).status).toBe("processing");
    const { last, seen } = await pollUntil(second.url, taskId, 60_000, KEY);
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
