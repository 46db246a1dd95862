// Issue 12, "Done when": each hostile page crawled through the reference started by its CLI (so the worker
// threads load as `plumbline reference` loads them) answers with no 5xx but 502/504, charges nothing when it fails,
// and /health keeps answering throughout; the process's memory stays under the bound the README documents across
// repeats. How fast (each answer within its cap, /health's p99 and worst while a hostile page is parsed) is
// measured by `plumbline bench extract-stall`, figures in docs/performance.md: the timeouts here only detect a hang.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceProcess, startReferenceProcess } from "../../../../test-support/reference-process.ts";
import { type HostileSite, startHostileSite } from "./hostile-site.ts";

const KEY = "HOSTILE";
/** README, "Memory": the whole process (main thread and parsing workers) stays under this. */
const MEMORY_BOUND_MB = 1024;

let site: HostileSite;
let ref: ReferenceProcess;

const auth = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };

async function balance(): Promise<number> {
  const r = await fetch(`${ref.url}/usage`, { headers: auth });
  return ((await r.json()) as { usage: number }).usage;
}

/** The resident memory of `plumbline reference`: the thin parent and the server it starts (bin/relaunch.js). */
function rssMb(...pids: number[]): number {
  let kb = 0;
  for (const pid of new Set(pids))
    kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  return kb / 1024;
}

/** Polls /health every 100 ms while `work` runs; resolves with what /health answered that was not a 200. */
async function healthDuring<T>(work: () => Promise<T>): Promise<{ result: T; unhealthy: string[] }> {
  const unhealthy: string[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const r = await fetch(`${ref.url}/health`, { signal: AbortSignal.timeout(20_000) });
        if (r.status !== 200) unhealthy.push(`${r.status} ${await r.text()}`);
        else await r.arrayBuffer();
      } catch (err) {
        unhealthy.push(String(err));
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  try {
    const result = await work();
    return { result, unhealthy };
  } finally {
    done = true;
    await poll;
  }
}

async function crawl(path: string) {
  const r = await fetch(`${ref.url}/crawl`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ url: `${site.url}${path}`, enableFallback: false }),
    signal: AbortSignal.timeout(45_000),
  });
  const body = (await r.json()) as { code?: string; message?: string };
  return { status: r.status, body };
}

beforeAll(async () => {
  site = await startHostileSite();
  ref = await startReferenceProcess({ keys: [`${KEY}:1000`], args: ["--rate-limit", "0"] });
  // the workers start with the server; the first crawl must not pay for loading them
  await crawl("/ok");
}, 90_000);
afterAll(async () => {
  await ref?.stop();
  await site?.close();
});

describe("hostile pages against the reference (issue 12)", () => {
  it.each([
    // path, expected status, expected code
    ["/deep-100k", 502, "PLB_UPSTREAM_FAILED"],
    ["/links-230k", 502, "PLB_UPSTREAM_FAILED"],
    ["/endless", 502, "PLB_UPSTREAM_FAILED"],
    ["/gzip-bomb", 502, "PLB_UPSTREAM_FAILED"],
    ["/binary-as-html", 400, "PLB_BAD_VALUE"],
  ])("%s answers %i %s, uncharged, /health answering throughout", async (path, status, code) => {
    const before = await balance();
    const { result, unhealthy } = await healthDuring(() => crawl(path));
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    expect(result.body).toMatchObject({ ok: false, code });
    expect(unhealthy).toEqual([]);
    expect(await balance()).toBe(before);
  });

  it("/deep-2k (2,000 nested divs) is flattened and answered with its text", async () => {
    const { result, unhealthy } = await healthDuring(() => crawl("/deep-2k"));
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body)).toContain("a few words of text");
    expect(unhealthy).toEqual([]);
  });

  it("keeps the whole process under the documented memory bound across repeats, /health answering", async () => {
    const pids = [ref.child.pid as number, ref.serverPid()];
    let peak = rssMb(...pids);
    const { unhealthy } = await healthDuring(async () => {
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(["/links-230k", "/deep-100k", "/deep-2k", "/links-230k"].map(crawl));
        for (const a of answers) expect([200, 502]).toContain(a.status);
        peak = Math.max(peak, rssMb(...pids));
      }
    });
    expect(peak).toBeLessThan(MEMORY_BOUND_MB);
    expect(unhealthy).toEqual([]);
  }, 120_000);
});
