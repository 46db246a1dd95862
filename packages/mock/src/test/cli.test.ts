// `plumbline mock` as a user runs it: prints its URL and the demo key, serves, and exits cleanly on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { BIN } from "../../../../test-support/cli-process.ts";

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, "mock", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${out}`)), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before printing its URL:\n${out}`));
    });
    child.stdout.on("data", () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      // the banner ends with the docs line
      if (m && out.includes(" docs ")) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  // a run expected to fail awaits `exited` and never `listening`: its rejection is not an unhandled one
  listening.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, listening, exited, output: () => out };
}

describe("plumbline mock", () => {
  it("starts with the demo key, serves the API and shuts down on SIGTERM", async () => {
    const p = run(["--port", "0"]);
    const url = await p.listening;
    expect(p.output()).toContain("key plumbline-demo-key: 1000 credits");
    const r = await fetch(`${url}/usage`, { headers: { authorization: "Bearer plumbline-demo-key" } });
    expect(await r.json()).toMatchObject({ usage: 1000, credential_type: "api_key" });
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  }, 90_000);

  it("creates the accounts named by --key and honours --clock manual", async () => {
    const p = run(["--port", "0", "--key", "alice:5", "--key", "bob:7:oauth", "--clock", "manual"]);
    const url = await p.listening;
    const usage = async (key: string) =>
      (await fetch(`${url}/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(await usage("alice")).toMatchObject({ usage: 5 });
    expect(await usage("bob")).toMatchObject({ usage: 7, credential_type: "oauth" });
    expect((await fetch(`${url}/usage`, { headers: { authorization: "Bearer plumbline-demo-key" } })).status).toBe(401);
    const clock = (await (await fetch(`${url}/__mock/clock`)).json()) as { mode: string };
    expect(clock.mode).toBe("manual");
    p.child.kill("SIGINT");
    expect(await p.exited).toBe(0);
  }, 90_000);

  it("refuses bad arguments with exit code 2 and a message", async () => {
    for (const args of [["--key", "nocredits"], ["--clock", "sundial"], ["--port", "-1"], ["--frobnicate"]]) {
      const p = run(args);
      expect(await p.exited, args.join(" ")).toBe(2);
      expect(p.output()).toMatch(/plumbline mock: /);
    }
  }, 90_000);

  it("replays --replay FILE.har: prints what it loaded, each answer that violates the spec on stderr", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-mock-cli-"));
    const poll = (taskId: string, status: string) => ({
      request: { method: "GET", url: `https://api.example.test/deepcrawl/status/${taskId}` },
      response: {
        status: 200,
        headers: [
          { name: "content-type", value: "application/json" },
          { name: "link", value: '</openapi.json>; rel="service-desc"' },
        ],
        content: {
          mimeType: "application/json",
          text: JSON.stringify({ taskId, status, message: "m", error: null, zipUrl: null }),
        },
      },
    });
    const file = join(dir, "polls.har");
    writeFileSync(
      file,
      JSON.stringify({ log: { version: "1.2", entries: [poll("dc_rec", "queued"), poll("dc_bad", "bogus")] } }),
    );
    try {
      const p = run(["--port", "0", "--replay", file]);
      const url = await p.listening;
      expect(p.output()).toContain(`replaying 1 recorded answers of 2 entries (match exact) from ${file}`);
      // stderr: its own pipe, read apart from the banner on stdout
      await vi.waitFor(
        () =>
          expect(p.output()).toMatch(
            /replay: .*polls\.har entry 1: GET \/deepcrawl\/status\/dc_bad 200 violates the spec, not served .*\/status must be equal to one of/,
          ),
        { timeout: 30_000 },
      );
      const demo = { headers: { authorization: "Bearer plumbline-demo-key" } };
      const replayed = await (await fetch(`${url}/deepcrawl/status/dc_rec`, demo)).json();
      expect(replayed).toMatchObject({ taskId: "dc_rec", status: "queued", message: "m" });
      // not served: the mock's own answer for a task it does not know
      expect((await fetch(`${url}/deepcrawl/status/dc_bad`, demo)).status).toBe(404);
      p.child.kill("SIGTERM");
      expect(await p.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it("refuses a recording it cannot read, and replay options without --replay, with exit code 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-mock-cli-"));
    const broken = join(dir, "broken.har");
    writeFileSync(broken, "{ not json");
    try {
      const cases: Array<[string[], RegExp]> = [
        [["--replay", broken], /plumbline mock: replay .*broken\.har: is not JSON/],
        [["--replay", join(dir, "absent.har")], /absent\.har: cannot be read \(ENOENT\)/],
        [
          ["--replay", broken, "--replay-match", "fuzzy"],
          /option '--replay-match <how>' argument 'fuzzy' is invalid\. Allowed choices are exact, ignore-body, path\./,
        ],
        [["--replay-invalid"], /--replay-match and --replay-invalid go with --replay FILE/],
      ];
      for (const [args, message] of cases) {
        const p = run(["--port", "0", ...args]);
        expect(await p.exited, args.join(" ")).toBe(2);
        expect(p.output()).toMatch(message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it("lists the replay options in --help, with exit 0", async () => {
    const p = run(["--help"]);
    expect(await p.exited).toBe(0);
    for (const flag of ["--replay <file.har>", "--replay-match <how>", "--replay-invalid"])
      expect(p.output()).toContain(flag);
  }, 90_000);
});
