// The parsing pool's caps (issue 12, D-parse-limits), on real worker threads: a task past its time cap has its
// worker terminated and fails as a value, and the pool goes on; a worker past its heap cap fails that call alone;
// a caller that gives up cancels its task.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createParsePool, type PageParser } from "./parse-pool.ts";

const small = "<html><body><article><h1>Title</h1><p>A short paragraph of text.</p></article></body></html>";
/** Within every element and depth cap, yet minutes of Readability's time (measured: 6 min in one thread). */
const heavy = `<html><body>${"<div>".repeat(100)}${"<p>some words in a paragraph</p>".repeat(45_000)}</body></html>`;

const pools: PageParser[] = [];
const pool = (o: Parameters<typeof createParsePool>[0]) => {
  const p = createParsePool({ threads: 1, ...o });
  pools.push(p);
  return p;
};
// a pool with the default caps and two threads, for the tests that judge neither its start nor its caps: each worker
// started costs its load (~1 CPU-s)
let shared: PageParser | undefined;
const sharedPool = () => {
  shared ??= pool({ threads: 2 });
  return shared;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe("the parsing pool", () => {
  it("parses in a worker, terminates a task past its time cap, and goes on with a new worker", async () => {
    // the heavy page spends the cap's CPU before it is stopped: a second is enough to tell
    const p = pool({ taskTimeoutMs: 1_000 });
    expect(await p.extract(small, "http://x.test/warm")).toMatchObject({ ok: true });
    const slow = await p.extract(heavy, "http://x.test/heavy");
    expect(slow).toEqual({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: "The page http://x.test/heavy could not be parsed within 1000 ms",
    });
    const after = await p.links('<a href="/a">a</a><a href="/b#x">b</a>', "http://x.test/");
    expect(after).toEqual({ ok: true, value: ["http://x.test/a", "http://x.test/b"] });
  }, 60_000);

  it("counts a task's time cap from when a worker starts it, apart from its wait in the queue", async () => {
    const p = pool({ taskTimeoutMs: 1_000, queueTimeoutMs: 400 });
    // a starting worker loads its parsers for longer than this queue cap: calls wait in the queue until it is ready
    let warm = await p.extract(small, "http://x.test/warm");
    for (let i = 0; i < 50 && !warm.ok; i++) warm = await p.extract(small, "http://x.test/warm");
    expect(warm).toMatchObject({ ok: true });
    // one worker: the heavy page parses past both caps, the small one waits behind it past the queue's
    const [slow, queued] = await Promise.all([
      p.extract(heavy, "http://x.test/heavy"),
      p.extract(small, "http://x.test/queued"),
    ]);
    expect(slow).toEqual({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: "The page http://x.test/heavy could not be parsed within 1000 ms",
    });
    expect(queued).toEqual({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: "The reference is busy: the page http://x.test/queued waited 400 ms",
    });
  }, 60_000);

  it("reads a fetched body in the worker: decoded by its charset, unreadable bytes told apart", async () => {
    const p = sharedPool();
    const latin1 = Buffer.from(
      "<html><head><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e.</p></body></html>",
      "latin1",
    );
    const read = await p.page({
      body: latin1,
      contentType: "text/html; charset=iso-8859-1",
      mediaType: "text/html",
      bodyKind: "html",
      url: "http://x.test/",
    });
    expect(read).toMatchObject({ ok: true, value: { kind: "html", runsScript: false, page: { title: "Café" } } });
    expect(read.ok && read.value.kind === "html" && read.value.page.markdown).toContain("Crème brûlée.");
    const links = Buffer.from('<a href="/caf\xe9">a</a><a href="mailto:x@y.z">m</a><a href="b#x">b</a>', "latin1");
    expect(
      await p.pageLinks({
        body: links,
        contentType: "text/html; charset=iso-8859-1",
        mediaType: "text/html",
        bodyKind: "html",
        url: "http://x.test/d/",
      }),
    ).toEqual({ ok: true, value: ["http://x.test/caf%C3%A9", "http://x.test/d/b"] });
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    expect(await p.page({ body: binary, mediaType: "text/plain", bodyKind: "text", url: "http://x.test/b" })).toEqual({
      ok: true,
      value: { kind: "unreadable" },
    });
  });

  it.runIf(process.platform === "linux")("runs its workers below the event loop's priority (nice 19)", async () => {
    const p = sharedPool();
    // two tasks at once: the second finds no worker free and starts the second
    await Promise.all([p.extract(small, "http://x.test/warm"), p.extract(small, "http://x.test/warm-2")]);
    const niceOf = (tid: string | number) =>
      Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16]);
    const nice = () => readdirSync("/proc/self/task").map(niceOf);
    // its nice value is set as it loads: wait for it rather than for a guess of the machine's speed
    await expect.poll(() => nice().filter((n) => n === 19).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    // the calling thread (its id is the process id; thread ids are not in order once ids wrap) keeps its own
    expect(niceOf(process.pid)).toBe(0);
  });

  it.runIf(process.platform === "linux")("starts a worker at the first task, not before, and keeps it", async () => {
    const workers = () =>
      new Set(
        readdirSync("/proc/self/task").filter((tid) => {
          try {
            return readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "WorkerThread";
          } catch {
            return false; // ended meanwhile
          }
        }),
      );
    const before = workers();
    const p = pool({ threads: 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...workers()].filter((t) => !before.has(t))).toEqual([]);
    await p.extract(small, "http://x.test/first");
    const started = [...workers()].filter((t) => !before.has(t));
    expect(started).toHaveLength(1);
    // one task after another: the worker started is kept and used again, no second one
    await p.extract(small, "http://x.test/second");
    expect([...workers()].filter((t) => !before.has(t))).toEqual(started);
  });

  it("fails a call whose worker runs out of heap, and only that call", async () => {
    const p = pool({ heapMb: 48, limits: { maxElements: 1_000_000 } });
    const r = await p.extract(heavy.repeat(4), "http://x.test/big");
    expect(r).toEqual({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: "The page http://x.test/big needed more than the 48 MiB a parse may use",
    });
    expect(await p.extract(small, "http://x.test/small")).toMatchObject({ ok: true });
  }, 60_000);

  it("refuses a page past the element cap without building its DOM", async () => {
    const p = pool({ limits: { maxElements: 100 } });
    const r = await p.extract(`<body>${"<i>x</i>".repeat(200)}</body>`, "http://x.test/many");
    expect(r).toMatchObject({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: expect.stringContaining("more than 100 elements"),
    });
  }, 60_000);

  it("cancels a task whose caller gives up", async () => {
    const p = sharedPool();
    const r = await p.extract(heavy, "http://x.test/heavy", undefined, AbortSignal.timeout(1));
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining("cancelled") });
  }, 60_000);
});
