// The thread that owns the SQLite page index (index-thread.ts): its own connection to the index file, the FTS5
// index of sqlite-page-index.ts, one request at a time from the reference's event loop.

import { parentPort, workerData } from "node:worker_threads";
import { Kysely, SqliteDialect } from "kysely";
import { openSqlite } from "../store/open-database.ts";
import { cachedStatements } from "../store/statement-cache.ts";
import { moveLegacyIndex } from "./index-thread-legacy.ts";
import type { IndexedPage, IndexQuery } from "./page-index.ts";
import { createSqlitePageIndex } from "./sqlite-page-index.ts";

const { file, legacyFile } = workerData as { file: string; legacyFile?: string };
const sqlite = openSqlite(file);
// biome-ignore lint/suspicious/noExplicitAny: the index owns its tables
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) });
const index = createSqlitePageIndex(db);
const ready = index.ready.then(() => (legacyFile ? moveLegacyIndex(sqlite, legacyFile) : undefined));

type Call =
  | { id: number; method: "add"; arg: IndexedPage }
  | { id: number; method: "search"; arg: IndexQuery }
  | { id: number; method: "count" };

async function answer(call: Call): Promise<unknown> {
  await ready;
  if (call.method === "add") return index.add(call.arg);
  if (call.method === "search") return index.search(call.arg);
  return index.count();
}

parentPort?.on("message", (call: Call | "close") => {
  if (call === "close") {
    void db.destroy().finally(() => parentPort?.close());
    return;
  }
  answer(call).then(
    (value) => parentPort?.postMessage({ id: call.id, ok: true, value }),
    (err) => parentPort?.postMessage({ id: call.id, ok: false, message: String((err as Error)?.message ?? err) }),
  );
});
// tell the owner the index is open (its tables made, an older index moved in), or why it could not be
ready.then(
  () => parentPort?.postMessage({ id: 0, ok: true, value: null }),
  (err) => parentPort?.postMessage({ id: 0, ok: false, message: String((err as Error)?.message ?? err) }),
);
