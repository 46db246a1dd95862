// The proxy's request log as a person reads it (issue 37): with --log (the default on a terminal) one line per
// exchange with its method, path, status, time, credits and the contract's verdict; with --log json the same record
// as a JSON line; the violation's detail on stderr as before.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, startCliProcess } from "../../../../../test-support/cli-process.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { startUpstreamDouble, type UpstreamDouble } from "./upstream-double.ts";

const KEY = "PLOG";
const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
let mock: MockProcess;
let upstream: UpstreamDouble;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-proxy-log-"));
  mock = await startMockProcess(["--key", `${KEY}:1000`, "--rate-limit", "0"]);
  upstream = await startUpstreamDouble(mock.url, { wrongTypes: true });
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The proxy with these --log arguments, and everything it prints. */
async function proxy(
  args: string[],
): Promise<{ p: CliProcess; out: () => string; until: (t: string) => Promise<void> }> {
  const p = await startCliProcess(
    ["proxy", "--upstream", upstream.url, "--port", "0", "--report-dir", join(dir, args.join("-") || "none"), ...args],
    "proxy",
  );
  let out = "";
  const waiters: Array<[string, () => void]> = [];
  const feed = (c: Buffer) => {
    out += c;
    for (const w of [...waiters])
      if (out.includes(w[0])) {
        waiters.splice(waiters.indexOf(w), 1);
        w[1]();
      }
  };
  p.child.stdout?.on("data", feed);
  p.child.stderr?.on("data", feed);
  const until = (text: string) =>
    out.includes(text) ? Promise.resolve() : new Promise<void>((r) => waiters.push([text, r]));
  return { p, out: () => out, until };
}

async function traffic(url: string) {
  await fetch(`${url}/search`, { method: "POST", headers, body: JSON.stringify({ query: "plumbline" }) });
  await fetch(`${url}/news?key=${KEY}`, { method: "POST", headers, body: JSON.stringify({ query: "plumbline" }) });
  await fetch(`${url}/usage`);
}

describe("plumbline proxy --log", () => {
  it("prints one readable line per exchange with its verdict", async () => {
    const { p, out, until } = await proxy(["--log"]);
    try {
      await traffic(p.url);
      await until(" GET /usage ");
      const lines = out()
        .split("\n")
        .filter((l) => /^\d\d:\d\d:\d\d /.test(l));
      expect(lines[0]).toMatch(
        /^\d\d:\d\d:\d\d POST \/search 200 \d+\.\d ms 1 credit ✗ \d+ violations?: response-schema$/,
      );
      expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d POST \/news\?key=\[REDACTED\] 200 \d+\.\d ms 1 credit ✓ news$/);
      expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d GET \/usage 401 \d+\.\d ms free ✓ usage$/);
      expect(out()).toMatch(/violation response-schema \[search\] #1 POST \/search → 200: /);
      expect(out()).not.toContain(`key=${KEY}`);
    } finally {
      await p.stop();
    }
    expect(out()).toMatch(/^3 exchanges, (\d+) violations? \(\1 of answers, 0 of requests\)$/m);
  });

  it("writes the same record as JSON lines with --log json", async () => {
    const { p, out, until } = await proxy(["--log", "json"]);
    try {
      await traffic(p.url);
      await until('"path":"/usage"');
    } finally {
      await p.stop();
    }
    const records = out()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(
      records.map((r) => [
        r.method,
        r.path,
        r.status,
        r.credits,
        [...new Set(r.violations.map((v: { rule: string }) => v.rule))],
      ]),
    ).toEqual([
      ["POST", "/search", 200, 1, ["response-schema"]],
      ["POST", "/news?key=[REDACTED]", 200, 1, []],
      ["GET", "/usage", 401, 0, []],
    ]);
  });

  it("logs no exchange when its output is not a terminal and --log is not given", async () => {
    const { p, out, until } = await proxy([]);
    try {
      await traffic(p.url);
      await fetch(`${p.url}/__proxy/report`);
    } finally {
      await p.stop();
    }
    await until("exchanges,");
    expect(out()).not.toMatch(/^\d\d:\d\d:\d\d /m);
  });
});
