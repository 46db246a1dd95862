// `plumbline mock` as a user runs it: prints its URL and the demo key, serves, and exits cleanly on SIGTERM.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/plumbline.js", import.meta.url));

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
    child.stdout.on("data", () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      // the banner ends with the docs line
      if (m && out.includes(" docs ")) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
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
});
