// The statement cache under kysely: one prepare per SQL text, a bounded number kept, streams still read.
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { cachedStatements } from "./statement-cache.ts";

interface Db {
  t: { id: number; v: string };
}

const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) if (d.open) d.close();
});

function counted(max?: number) {
  const raw = new SQLite(":memory:");
  opened.push(raw);
  raw.exec("create table t (id integer primary key, v text)");
  const prepared: string[] = [];
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof raw.prepare;
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: cachedStatements(raw, max) }) });
  return { db, prepared };
}

/** rows 1..n, one insert statement run n times */
async function fill(db: Kysely<Db>, n: number) {
  for (let i = 1; i <= n; i++)
    await db
      .insertInto("t")
      .values({ id: i, v: `v${i}` })
      .execute();
}

describe("cachedStatements", () => {
  it("prepares a SQL text once and runs it again with new parameters", async () => {
    const { db, prepared } = counted();
    await fill(db, 5);
    const read = (id: number) => db.selectFrom("t").select("v").where("id", "=", id).executeTakeFirst();
    expect(await read(2)).toEqual({ v: "v2" });
    expect(await read(4)).toEqual({ v: "v4" });
    expect(prepared.filter((s) => s.startsWith("insert")).length).toBe(1);
    expect(prepared.filter((s) => s.startsWith("select")).length).toBe(1);
  });

  it("keeps at most `max` statements, the least recently used out first", async () => {
    const { db, prepared } = counted(2);
    const q = (n: number) =>
      db
        .selectFrom("t")
        .select("id")
        .where(
          "id",
          "in",
          Array.from({ length: n }, (_, i) => i),
        );
    await q(1).execute(); // a
    await q(2).execute(); // b
    await q(1).execute(); // a again: now b is the oldest
    await q(3).execute(); // c: b goes
    await q(1).execute(); // a still kept
    await q(2).execute(); // b prepared again
    expect(prepared.length).toBe(4);
  });

  it("streams rows through a kept statement, and runs it again after", async () => {
    const { db, prepared } = counted();
    await fill(db, 3);
    const all = db.selectFrom("t").select("id").orderBy("id");
    expect((await all.execute()).map((r) => r.id)).toEqual([1, 2, 3]);
    const streamed: number[] = [];
    for await (const row of all.stream()) streamed.push(row.id);
    expect(streamed).toEqual([1, 2, 3]);
    expect((await all.execute()).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(prepared.filter((s) => s.startsWith("select")).length).toBe(1);
  });
});
