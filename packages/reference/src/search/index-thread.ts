// The SQLite page index off the event loop (issue 12: /health stays fast under crawl load). Adding a page to FTS5
// tokenizes up to MAX_INDEXED_CHARS twice (stemmed and raw) and merges segments at commit: 2-3 ms of synchronous
// work per crawl measured on the event loop (a cpu profile of `bench crawl-load`), more when FTS5 merges. A worker
// thread owns the index in a file of its own (search-index.db beside plumbline.db), so the reference's ledger
// writes never wait for its lock either. PostgreSQL's index needs none of this: the server does the work.
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { IndexedPage, IndexHit, IndexQuery, PageIndex } from "./page-index.ts";

export const INDEX_FILE = "search-index.db";

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/**
 * The index of the SQLite database at `dbFile`: its own file beside it, in a thread of its own, started at the
 * first call (its SQLite and query builder take ~0.3 s of CPU to load, which a reference that never indexes nor
 * searches its index does not spend). An index left in `dbFile` by older versions is moved over then.
 */
export async function createThreadedSqlitePageIndex(dbFile: string): Promise<PageIndex> {
  const file = join(dirname(dbFile), INDEX_FILE);
  let thread: Promise<IndexThread> | null = null;
  let closed = false;
  const started = () => {
    if (closed) return Promise.reject(new Error("page index thread closed"));
    thread ??= startThread(file, dbFile);
    return thread;
  };
  return {
    add: async (page: IndexedPage) => void (await (await started()).call("add", page)),
    search: async (q: IndexQuery) => (await (await started()).call("search", q)) as IndexHit[],
    count: async () => (await (await started()).call("count")) as number,
    async close() {
      if (closed) return;
      closed = true;
      if (thread) await (await thread.catch(() => null))?.close();
    },
  };
}

interface IndexThread {
  call(method: string, arg?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

async function startThread(file: string, legacyFile: string): Promise<IndexThread> {
  // from the sources the thread loads the TypeScript through a shim (./index-thread-worker.mjs); built, the .js
  const entry = import.meta.url.endsWith(".ts") ? "./index-thread-worker.mjs" : "./index-thread-worker.js";
  const worker = new Worker(new URL(entry, import.meta.url), {
    workerData: { file, legacyFile },
  });
  // a forgotten close() must not keep the process alive
  worker.unref();
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let dead: Error | null = null;
  const fail = (err: Error) => {
    dead ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on("message", (a: Answer) => {
    const p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    if (a.ok) p.resolve(a.value);
    else p.reject(new Error(`page index: ${a.message}`));
  });
  worker.on("error", (err) => fail(new Error(`page index thread failed: ${err.message}`)));
  worker.on("exit", (code) => fail(new Error(`page index thread exited (${code})`)));

  function call(method: string, arg?: unknown, id = next++): Promise<unknown> {
    if (dead) return Promise.reject(dead);
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (id !== 0) worker.postMessage({ id, method, arg });
    });
  }
  await call("open", undefined, 0); // the thread's first answer: the index is open
  return {
    call,
    async close() {
      if (dead) return;
      const exited = new Promise<void>((r) => worker.once("exit", () => r()));
      // held while it closes: an unreferenced thread would let the process end before the database is closed
      worker.ref();
      worker.postMessage("close");
      await exited;
    },
  };
}
