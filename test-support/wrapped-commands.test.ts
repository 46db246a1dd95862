// `plumbline mock|proxy|reference [options] -- CMD …` run through npx in a client's project, as a CI step runs it
// (issue 37): the exit code is CMD's (through npx too), or the proxy's --fail-on verdict when CMD passed; CMD finds
// the server's address and keys in its environment; a signal sent to plumbline reaches CMD; and when it is over no
// process is left: not the server (its port refuses), not CMD, not what CMD left running, even when npx itself is
// killed with SIGTERM (which it does not pass on).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../packages/mock/src/start-mock.ts";
import { startUpstreamDouble, type UpstreamDouble } from "../packages/tools/src/proxy/test/upstream-double.ts";
import { type LinkedProject, linkedProject, runNpx } from "./linked-project.ts";
import { processEnded } from "./process-state.ts";

// a client's test: calls the API at $PLUMBLINE_URL with the key of its environment, writes what it saw, exits as told
const CLIENT = `
import { writeFileSync } from "node:fs";
const env = process.env;
const search = (key) => fetch(env.PLUMBLINE_URL + "/search", {
  method: "POST",
  headers: { authorization: "Bearer " + key, "content-type": "application/json" },
  body: JSON.stringify({ query: "wrapped" }),
});
const funded = await search(env.PLUMBLINE_API_KEY);
const broke = env.PLUMBLINE_BROKE_API_KEY ? (await search(env.PLUMBLINE_BROKE_API_KEY)).status : null;
writeFileSync(process.argv[2], JSON.stringify({
  url: env.PLUMBLINE_URL, funded: funded.status, broke,
  keys: [env.PLUMBLINE_API_KEY, env.SEARCH1API_API_KEY, env.SEARCH1API_KEY, env.PLUMBLINE_BROKE_API_KEY],
  paymentKey: env.PLUMBLINE_PAYMENT_KEY ?? null,
}));
process.exit(Number(process.argv[3] ?? 0));
`;

// a long-running CMD: leaves a grandchild running, says where it is, and exits 7 on SIGTERM, 8 on SIGINT
const SLEEPER = `
import { spawn } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
const grandchild = spawn("sleep", ["600"], { stdio: "ignore" });
process.on("SIGTERM", () => process.exit(7));
process.on("SIGINT", () => process.exit(8));
// written whole, then renamed: the test reads it as soon as it exists
writeFileSync(process.argv[2] + ".tmp", JSON.stringify({ pid: process.pid, plumbline: process.ppid, grandchild: grandchild.pid, url: process.env.PLUMBLINE_URL }));
renameSync(process.argv[2] + ".tmp", process.argv[2]);
setInterval(() => {}, 1000);
`;

let project: LinkedProject;
let mock: RunningMock;
const KEY = "wrapped-key-5c1e";

beforeAll(async () => {
  project = linkedProject("plumbline-wrapped-");
  writeFileSync(join(project.dir, "client-test.js"), CLIENT);
  writeFileSync(join(project.dir, "sleeper.js"), SLEEPER);
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 1000 }] });
});
afterAll(async () => {
  await mock.close();
  project.remove();
});

const read = (name: string) => JSON.parse(readFileSync(join(project.dir, name), "utf8"));

async function refuses(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health`);
    return false;
  } catch {
    return true;
  }
}

/** Resolves once the file exists (written by the wrapped command once it runs). */
async function fileWritten(path: string): Promise<void> {
  while (!existsSync(path)) await sleep(50);
}

/** Resolves once every pid has ended. */
async function ended(pids: number[]): Promise<void> {
  while (!pids.every(processEnded)) await sleep(50);
}

describe("npx plumbline mock -- CMD", () => {
  it("exits 0 when CMD passes; CMD found the mock's address, its funded and broke keys, the payment key", async () => {
    const r = await runNpx(project, [
      "plumbline",
      "mock",
      "--port",
      "0",
      "--key",
      "team-key:100",
      "--key",
      "empty-key:0",
      "--",
      "node",
      "client-test.js",
      "seen-0.json",
    ]);
    expect(r.code, r.out).toBe(0);
    const seen = read("seen-0.json");
    expect(seen).toMatchObject({ funded: 200, broke: 402, paymentKey: "plumbline-demo-payment-key" });
    expect(seen.keys).toEqual(["team-key", "team-key", "team-key", "empty-key"]);
    expect(await refuses(seen.url)).toBe(true);
  });

  it("exits with CMD's status when it fails (3), the demo key given when no --key is", async () => {
    const r = await runNpx(project, [
      "plumbline",
      "mock",
      "--port",
      "0",
      "--",
      "node",
      "client-test.js",
      "seen-3.json",
      "3",
    ]);
    expect(r.code, r.out).toBe(3);
    const seen = read("seen-3.json");
    expect(seen).toMatchObject({ funded: 200, broke: null });
    expect(seen.keys[0]).toBe("plumbline-demo-key");
    expect(await refuses(seen.url)).toBe(true);
  });

  for (const [signal, code] of [
    ["SIGTERM", 7],
    ["SIGINT", 8],
  ] as const)
    it(`passes a ${signal} sent to plumbline on to CMD, exits with CMD's status, and leaves nothing running`, async () => {
      const file = join(project.dir, `sleeper-${signal}.json`);
      const run = runNpx(project, ["plumbline", "mock", "--port", "0", "--", "node", "sleeper.js", file]);
      await fileWritten(file);
      const s = JSON.parse(readFileSync(file, "utf8"));
      expect(await refuses(s.url)).toBe(false);
      process.kill(s.plumbline, signal);
      const r = await run;
      expect(r.code, r.out).toBe(code);
      await ended([s.pid, s.grandchild, s.plumbline]);
      expect(await refuses(s.url)).toBe(true);
    });

  it("stops CMD and the mock when npx itself is killed with SIGTERM (npx does not pass it on)", async () => {
    const file = join(project.dir, "sleeper-npx.json");
    let npxPid = 0;
    const run = runNpx(project, ["plumbline", "mock", "--port", "0", "--", "node", "sleeper.js", file], {}, (pid) => {
      npxPid = pid;
    });
    await fileWritten(file);
    const s = read("sleeper-npx.json");
    process.kill(npxPid, "SIGTERM");
    await run;
    await ended([s.pid, s.grandchild, s.plumbline]);
    expect(await refuses(s.url)).toBe(true);
  });

  it("refuses words before -- (a mistyped option would run as a program), exit 2", async () => {
    const r = await runNpx(project, ["plumbline", "mock", "--port", "0", "node", "client-test.js"]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/plumbline mock: unexpected argument "node": a command to run goes after --/);
  });

  it("a CMD that is not found exits 127, as a shell says it, with the mock closed", async () => {
    const r = await runNpx(project, ["plumbline", "mock", "--port", "0", "--", "no-such-program-37"]);
    expect(r.code).toBe(127);
    expect(r.out).toMatch(/plumbline mock: could not run no-such-program-37: .*ENOENT/);
  });
});

describe("npx plumbline proxy --fail-on response -- CMD", () => {
  let broken: UpstreamDouble;
  beforeAll(async () => {
    broken = await startUpstreamDouble(mock.url, { wrongTypes: true });
  });
  afterAll(() => broken.close());

  const proxy = (upstream: string, seen: string, code = "0") =>
    runNpx(
      project,
      [
        "plumbline",
        "proxy",
        "--upstream",
        upstream,
        "--port",
        "0",
        "--fail-on",
        "response",
        "--report-dir",
        `reports/${seen}`,
        "--",
        "node",
        "client-test.js",
        `${seen}.json`,
        code,
      ],
      { PLUMBLINE_API_KEY: KEY },
    );

  it("exits 1 when the upstream broke the contract though CMD passed, with the report written", async () => {
    const r = await proxy(broken.url, "proxy-broken");
    expect(r.code, r.out).toBe(1);
    expect(read("proxy-broken.json").funded).toBe(200);
    expect(r.out).toMatch(/violation response-schema \[search\]/);
    const report = JSON.parse(readFileSync(join(project.dir, "reports/proxy-broken/proxy.json"), "utf8"));
    expect(report.totals.violations).toBeGreaterThan(0);
  });

  it("exits 0 when the upstream keeps the contract", async () => {
    const r = await proxy(mock.url, "proxy-good");
    expect(r.code, r.out).toBe(0);
    const seen = read("proxy-good.json");
    expect(seen.funded).toBe(200);
    expect(await refuses(seen.url)).toBe(true);
  });

  it("exits with CMD's status when CMD failed, whatever the verdict", async () => {
    const r = await proxy(mock.url, "proxy-cmd-failed", "4");
    expect(r.code, r.out).toBe(4);
  });
});

describe("npx plumbline reference -- CMD", () => {
  it("exits with CMD's status; CMD found the reference's address and seeded keys; nothing left running", async () => {
    const r = await runNpx(project, [
      "plumbline",
      "reference",
      "--port",
      "0",
      "--data-dir",
      "reference-data",
      "--key",
      "ref-key:50",
      "--key",
      "ref-broke:0",
      "--",
      "node",
      "client-test.js",
      "seen-reference.json",
      "5",
    ]);
    expect(r.code, r.out).toBe(5);
    const seen = read("seen-reference.json");
    expect(seen).toMatchObject({ funded: 200, broke: 402 });
    expect(seen.keys).toEqual(["ref-key", "ref-key", "ref-key", "ref-broke"]);
    expect(seen.paymentKey).toEqual(expect.any(String));
    expect(await refuses(seen.url)).toBe(true);
  }, 120_000);
});
