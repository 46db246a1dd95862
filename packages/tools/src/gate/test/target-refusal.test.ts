// A down or wrong target, as a person meets it (issue 37): conform, gate, load and fuzz each say it in one line
// that names the cause and what to do, once, and exit 2 before any check; the gate says what it waits for while
// it waits; the fuzzer announces its pacing with the target's limit.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "../../../../../test-support/cli-process.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { type StaticSite, startStaticSite } from "../../../../../test-support/static-site.ts";

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const count = (text: string, part: string) => text.split(part).length - 1;
const ARGS: Record<string, string[]> = {
  conform: ["--no-report"],
  load: ["--duration", "1", "--no-report"],
  fuzz: ["--time", "1", "--no-report"],
  gate: ["--wait-for-target", "0", "--no-report"],
};

let site: StaticSite;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-static-"));
  site = await startStaticSite(dir);
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(ARGS))("%s", (command) => {
  it("refuses a target where nothing listens: one line, exit 2", async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli([command, "--target", target, "--api-key", "k", ...ARGS[command]]);
    const line = `nothing answers at ${target} (connection refused): is the server running?`;
    expect(r.code).toBe(2);
    expect(count(r.stdout + r.stderr, line)).toBe(1);
    expect(r.stdout + r.stderr).toContain(`plumbline ${command}: `);
    expect(r.stdout + r.stderr).not.toMatch(/fetch failed|TypeError|ECONNREFUSED|\bat .*\.ts:\d+/);
    // once (conform and gate printed it twice); load says it without the words
    expect(count(r.stdout + r.stderr, "could not run")).toBe(command === "load" ? 0 : 1);
  });

  it("refuses a plain static file server before any check: not this API, exit 2", async () => {
    const r = await runCli([command, "--target", site.url, "--api-key", "k", ...ARGS[command]]);
    expect(r.code).toBe(2);
    const line = "this is not the Web Search API: GET /health answered 404 (is --target the API's base URL?)";
    expect(count(r.stdout + r.stderr, line)).toBe(1);
    expect(r.stdout).not.toMatch(/\bpass\b|\bFAIL\b|plan:|input cases|credits spent/);
    expect(count(r.stdout + r.stderr, "could not run")).toBe(command === "load" ? 0 : 1);
  });
});

describe("gate --wait-for-target", () => {
  it("says what it waits for while it waits, then names the cause in its last line", async () => {
    const port = await closedPort();
    const target = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [BIN, "gate", "--target", target, "--api-key", "k", "--no-report"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const waiting = new Promise<void>((resolve) =>
      child.stdout.on("data", (c: Buffer) => {
        out += c;
        if (out.includes("gate: waiting up to 30 s")) resolve();
      }),
    );
    child.stderr.on("data", (c: Buffer) => {
      out += c;
    });
    const exited = new Promise<number | null>((r) => child.on("close", r));
    await waiting;
    expect(out).toContain(
      `gate: waiting up to 30 s for ${target}/health to answer: nothing answers at ${target} (connection refused)`,
    );
    // something starts listening while the gate waits: a static site, which the gate then refuses
    const server = createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("no"));
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    try {
      expect(await exited).toBe(2);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    const last = out.trim().split("\n").pop();
    expect(last).toMatch(
      /^plumbline gate: could not run \(after \d+\.\d s\): this is not the Web Search API: GET \/health answered 404/,
    );
    expect(count(out, "could not run")).toBe(1);
  });

  it("ends a wait that never got an answer naming the cause and the flag that waits longer", async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(["gate", "--target", target, "--api-key", "k", "--wait-for-target", "1", "--no-report"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`gate: waiting up to 1 s for ${target}/health to answer`);
    expect(r.stderr.trim()).toMatch(
      new RegExp(
        `^plumbline gate: could not run \\(after \\d+\\.\\d s\\): nothing answers at ${target.replace(/\./g, "\\.")} \\(connection refused\\): is the server running\\? \\(waited 1 s; --wait-for-target S waits longer\\)$`,
      ),
    );
  });
});

describe("fuzz against a rate-limited mock", () => {
  let mock: MockProcess;
  beforeAll(async () => {
    mock = await startMockProcess(["--rate-limit", "60", "--key", "RL:100000"]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("announces its pacing at the start, with the target's limit", async () => {
    const r = await runCli([
      "fuzz",
      "--target",
      mock.url,
      "--api-key",
      "RL",
      "--operations",
      "usage",
      "--runs",
      "1",
      "--properties",
      "invalid-input",
      "--no-report",
      "--corpus-dir",
      dir,
    ]);
    expect(r.stderr + r.stdout).toContain(
      'pacing: the target allows 60 requests per 60 s (RateLimit-Policy "default", 1.00/s)',
    );
    const lines = (r.stdout + r.stderr).split("\n");
    expect(lines.findIndex((l) => l.startsWith("pacing:"))).toBeLessThan(
      lines.findIndex((l) => l.startsWith("invalid-input:")),
    );
  });
});

describe("the gate's load stage", () => {
  let mock: MockProcess;
  beforeAll(async () => {
    mock = await startMockProcess(["--rate-limit", "0", "--key", "LOAD:100000000"]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("prints its progress while it runs, not only its verdict", async () => {
    const r = await runCli([
      "gate",
      "--target",
      mock.url,
      "--api-key",
      "LOAD",
      "--stages",
      "load",
      "--time",
      "16",
      // a budget paces the stage (a rate the credits cover, as a CI job against a paid target runs it) rather than
      // the closed loop, which would keep both cores busy for the whole stage: progress lines are what is judged here,
      // so a small one (~5 arrivals a second over the stage's 12 s; 2000 credits sent ~100 a second to no purpose)
      "--budget-credits",
      "100",
      "--no-report",
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    // the stage says how long it runs; a run of 6 s or more has a progress line at 5 s (the lines count seconds of
    // the run itself, so a slow machine runs as long and prints as many)
    const plan = /^ {2}load: (\d+) s measured after a (\d+) s warm-up.*, a line every 5 s$/.exec(
      lines.find((l) => l.startsWith("  load: ")) ?? "",
    );
    expect(plan).not.toBeNull();
    const seconds = Number(plan?.[1]) + Number(plan?.[2]);
    const progress = lines.filter((l) =>
      /^ {2}\[ +\d+\/\d+ s\] +\d+ answers\/s {2}p99 .* total \d+ {2}errors 0$/.test(l),
    );
    // --time 16 leaves the stage 12 s but what the gate's own reads took: twice the 6 s a line needs
    expect(seconds).toBeGreaterThanOrEqual(6);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(lines.indexOf(progress[0])).toBeLessThan(lines.findIndex((l) => l.startsWith("gate: load passed")));
    expect(lines.at(-2)).toMatch(/^gate passed in \d+\.\d s, \d+ credits?: load 0$/);
  });
});
