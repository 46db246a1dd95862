// kill -9 of the reference mid-burst (issue 38), shared by the crash test and `plumbline bench crash`: reference
// servers started through the CLI on one database (a SQLite data directory, or a PostgreSQL schema with two
// instances), a burst of concurrent paid calls on one key (fast /search, and /crawl of a local page that answers only
// when let go, so their holds stay open), SIGKILL of the first server's serving process once every crawl's hold is
// open in the database and searches have succeeded, the page let go (the surviving instance's crawls finish), the
// killed server restarted on the same data (with restartInProcess, in the caller's process), and the wait until no
// hold of the dead instance is left. What the clients saw and what the database says are returned for the caller to
// judge. Test glue.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type OpenedDatabase, openDatabase } from "../packages/reference/src/store/open-database.ts";
import { type CliProcess, startCliProcess } from "./cli-process.ts";
import { freshPostgresSchema } from "./postgres-schema.ts";

export const CRASH_KEY = "ledger-crash-key";
export const CRASH_CREDITS = 99_999;

export interface CrashOptions {
  /** PostgreSQL (two instances on one schema, the first killed); absent: SQLite in a fresh data directory */
  databaseUrl?: string;
  /** the schema made afresh on that database */
  schema?: string;
  searches?: number;
  /** slow crawls per instance */
  crawls?: number;
  /** seconds an instance's lease lasts (passed as --instance-lease-seconds) */
  leaseSeconds?: number;
  /**
   * the restart runs in this process, with the options the killed server's flags give, instead of as a `plumbline
   * reference` process (~3 CPU-s to start); default false. (The survivor stays a process: its share of the CPU during
   * the burst is a process's, as a deployment's is.)
   */
  restartInProcess?: boolean;
}

export interface ClientCall {
  server: "killed" | "survivor";
  operation: "search" | "crawl";
  requestId: string;
  /** the HTTP status, or 0 when the connection failed (the server was killed) */
  status: number;
}

export interface CrashOutcome {
  store: "sqlite" | "postgres";
  calls: ClientCall[];
  /** the dead instance's holds open right after the kill (what recovery had to release) */
  orphanedHolds: number;
  orphanedCredits: number;
  /** from the kill until no hold of the dead instance was left (a SQLite server's restart included) */
  recoveryMs: number;
  /** from the kill until the restarted server listened (its start releases what the lease let go by then) */
  restartMs: number;
  initial: number;
  balance: number;
  ledgerCredits: number;
  ledgerRequestIds: Set<string>;
  /** holds still open at the end (every call has ended: 0 expected) */
  openHolds: number;
  /** initial − Σ ledger − balance: credits gone with no ledger row (0 expected) */
  creditsLost: number;
}

/** A page that answers only once `letGo()` is called (or the server closes). */
async function slowSite() {
  const waiting: ServerResponse[] = [];
  let open = false;
  const answer = (res: ServerResponse) =>
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end("<!doctype html><title>Slow page</title><h1>Slow page</h1><p>Worth the wait.</p>");
  const server = createServer((_req, res) => {
    if (open) answer(res);
    else waiting.push(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    letGo() {
      open = true;
      for (const res of waiting.splice(0)) answer(res);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== null) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function crashMidBurst(o: CrashOptions = {}): Promise<CrashOutcome> {
  const store = o.databaseUrl ? "postgres" : "sqlite";
  const dir = o.databaseUrl ? null : mkdtempSync(join(tmpdir(), "plumbline-ledger-crash-"));
  const url = o.databaseUrl ? await freshPostgresSchema(o.databaseUrl, o.schema ?? "ledger_crash") : null;
  const where = url ? ["--database-url", url] : ["--data-dir", dir as string];
  const searches = o.searches ?? 300;
  const crawls = o.crawls ?? 20;
  const site = await slowSite();
  const running: Array<{ url: string; stop(): Promise<void> }> = [];
  let db: OpenedDatabase | null = null;
  const leaseSeconds = o.leaseSeconds ?? 2;
  const start = async () => {
    const p = await startCliProcess(
      [
        "reference",
        "--port",
        "0",
        "--allow-private-network",
        ...where,
        "--key",
        `${CRASH_KEY}:${CRASH_CREDITS}`,
        "--rate-limit",
        "0",
        "--instance-lease-seconds",
        String(leaseSeconds),
      ],
      "reference",
    );
    running.push(p);
    return p;
  };
  /** the restart: a process like the killed one, or (restartInProcess) the same options in this process */
  const restart = async (): Promise<{ url: string }> => {
    if (!o.restartInProcess) return start();
    const { startReference } = await import("../packages/reference/src/start-reference.ts");
    const ref = await startReference({
      port: 0,
      allowPrivateNetwork: true,
      ...(url ? { databaseUrl: url } : { dataDir: dir as string }),
      keys: [{ key: CRASH_KEY, credits: CRASH_CREDITS }],
      rateLimits: { perAccount: 0 },
      instanceLeaseSeconds: leaseSeconds,
    });
    running.push({ url: ref.url, stop: () => ref.close() });
    return ref;
  };
  try {
    const killed = await start();
    // PostgreSQL: a second instance on the same database, started after the first seeded the key
    const survivor = url ? await start() : null;
    db = await openDatabase(url ? { databaseUrl: url } : { dataDir: dir as string });
    const reader = db.db;

    const calls: ClientCall[] = [];
    const call = (server: CliProcess, name: ClientCall["server"], operation: ClientCall["operation"], i: number) => {
      const requestId = `${name}-${operation}-${i}`;
      const body = operation === "search" ? { query: `ledger crash ${i}` } : { url: site.url };
      const entry: ClientCall = { server: name, operation, requestId, status: -1 };
      calls.push(entry);
      return fetch(`${server.url}/${operation}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${CRASH_KEY}`,
          "content-type": "application/json",
          "x-request-id": requestId,
        },
        body: JSON.stringify(body),
      }).then(
        async (res) => {
          await res.arrayBuffer().catch(() => {});
          entry.status = res.status;
        },
        () => {
          entry.status = 0;
        },
      );
    };
    const servers: Array<[CliProcess, ClientCall["server"]]> = [[killed, "killed"]];
    if (survivor) servers.push([survivor, "survivor"]);
    const inFlight: Promise<void>[] = [];
    for (const [server, name] of servers)
      for (let i = 0; i < crawls; i++) inFlight.push(call(server, name, "crawl", i));
    for (let i = 0; i < searches; i++) {
      const [server, name] = servers[i % servers.length];
      inFlight.push(call(server, name, "search", i));
    }

    // the moment: every crawl's hold is open in the database and searches have succeeded on every server
    await until("the crawls' holds to be open and searches answered", async () => {
      const open = await reader
        .selectFrom("holds")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("operation_id", "=", "crawl")
        .executeTakeFirstOrThrow();
      const answered = servers.every(([, name]) =>
        calls.some((c) => c.server === name && c.operation === "search" && c.status === 200),
      );
      return Number(open.n) === crawls * servers.length && answered ? true : null;
    });
    const exited = new Promise((r) => killed.child.once("exit", r));
    process.kill(killed.serverPid(), "SIGKILL");
    const killedAt = Date.now();
    // read at once, before another instance's recovery (a lease later) can release them
    const orphans = await reader
      .selectFrom("holds")
      .select(["id", "credits"])
      .where("request_id", "like", "killed-%")
      .execute();
    await exited;
    // watched from now on: on PostgreSQL the survivor releases them once the lease runs out, before any restart
    const ids = orphans.map((h) => h.id);
    const recovered = until("the dead instance's holds to be released", async () => {
      if (ids.length === 0) return true;
      const left = await reader.selectFrom("holds").select("id").where("id", "in", ids).execute();
      return left.length === 0 ? true : null;
    }).then(() => Date.now() - killedAt);
    // the survivor's crawls get their page now, and settle
    site.letGo();
    await Promise.all(inFlight);
    // restarted on the same data: a new instance, which (or the survivor) releases the dead one's holds
    await restart();
    const restartMs = Date.now() - killedAt;
    const recoveryMs = await recovered;

    const accounts = await reader.selectFrom("accounts").select(["id", "balance"]).execute();
    if (accounts.length !== 1) throw new Error(`expected the one seeded account, found ${accounts.length}`);
    const ledger = await reader.selectFrom("ledger").select(["request_id", "credits"]).execute();
    const ledgerCredits = ledger.reduce((n, r) => n + Number(r.credits), 0);
    const balance = Number(accounts[0].balance);
    const openHolds = (await reader.selectFrom("holds").select("id").execute()).length;
    return {
      store,
      calls,
      orphanedHolds: orphans.length,
      orphanedCredits: orphans.reduce((n, h) => n + Number(h.credits), 0),
      recoveryMs,
      restartMs,
      initial: CRASH_CREDITS,
      balance,
      ledgerCredits,
      ledgerRequestIds: new Set(ledger.map((r) => r.request_id)),
      openHolds,
      creditsLost: CRASH_CREDITS - ledgerCredits - balance,
    };
  } finally {
    await db?.close();
    for (const p of running) await p.stop();
    await site.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** The successes clients saw that have no ledger row (none expected). */
export function unchargedSuccesses(out: CrashOutcome): ClientCall[] {
  return out.calls.filter((c) => c.status === 200 && !out.ledgerRequestIds.has(c.requestId));
}
