// What a person sees of the mock (issue 37): the routes listed at start, a readable line per request (method, path,
// status, time, credits, the contract's verdict) with --log (the default on a terminal), pino's JSON lines with
// --log json, a page at / pointing to /docs, /openapi.json and /health, and one clear line for a --spec that is not
// there.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { BIN } from "../../../../test-support/cli-process.ts";
import { logFormat } from "../cli.ts";

const KEY = { authorization: "Bearer LOG", "content-type": "application/json" };

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, "mock", "--port", "0", "--key", "LOG:100", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters: Array<{ test: (s: string) => boolean; resolve: () => void }> = [];
  const feed = (d: Buffer) => {
    out += d;
    for (const w of [...waiters]) {
      if (!w.test(out)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on("data", feed);
  child.stderr.on("data", feed);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  /** resolves once the output holds what `test` looks for (an event, not a delay) */
  const until = (test: (s: string) => boolean) =>
    test(out) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }));
  return { child, exited, until, output: () => out };
}

let current: ReturnType<typeof run> | undefined;
afterEach(async () => {
  if (current && current.child.exitCode === null) {
    current.child.kill("SIGTERM");
    await current.exited;
  }
  current = undefined;
});

async function started(args: string[]) {
  current = run(args);
  await current.until((s) => /listening on http:\/\/\S+[\s\S]*routes:[\s\S]*SKILL\.md/.test(s));
  return { p: current, url: /listening on (http:\/\/\S+)/.exec(current.output())?.[1] as string };
}

describe("plumbline mock's output", () => {
  it("lists its routes at start, and with --log prints one readable line per request with its verdict", async () => {
    const { p, url } = await started(["--log"]);
    expect(p.output()).toMatch(/routes: the contract's 11 operations and 7 discovery documents/);
    expect(p.output()).toContain(`    POST ${url}/search (1 credit an entry)`);
    expect(p.output()).toContain(`    GET  ${url}/health (free)`);
    await fetch(`${url}/search`, { method: "POST", headers: KEY, body: JSON.stringify({ query: "plumbline" }) });
    await fetch(`${url}/search?api_key=LOG`, { method: "POST", headers: KEY, body: JSON.stringify({ q: "" }) });
    await fetch(`${url}/search`, {
      method: "POST",
      headers: KEY,
      body: JSON.stringify([{ query: "a" }, { query: "b" }]),
    });
    await fetch(`${url}/usage`);
    await p.until((s) => s.includes(" GET /usage "));
    const lines = p
      .output()
      .split("\n")
      .filter((l) => /^\d\d:\d\d:\d\d /.test(l));
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d POST \/search 200 \d+\.\d ms 1 credit ✓ search$/);
    expect(lines[1]).toMatch(
      /^\d\d:\d\d:\d\d POST \/search\?api_key=\[REDACTED\] 422 \d+\.\d ms free ✗ PLB_VALIDATION_FAILED: query is required/,
    );
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d POST \/search 200 \d+\.\d ms 2 credits ✓ search$/);
    expect(lines[3]).toMatch(/^\d\d:\d\d:\d\d GET \/usage 401 \d+\.\d ms free ✗ PLB_MISSING_CREDENTIAL: /);
    expect(p.output()).not.toContain("api_key=LOG");
  });

  it("writes pino's JSON lines with --log json, as before", async () => {
    const { p, url } = await started(["--log", "json"]);
    await fetch(`${url}/health`);
    await p.until((s) => s.includes('"msg":"request completed"'));
    const json = p
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(json.find((j) => j.msg === "incoming request")).toMatchObject({ req: { method: "GET", url: "/health" } });
    expect(json.find((j) => j.msg === "request completed")).toMatchObject({ res: { statusCode: 200 } });
  });

  it("logs nothing per request when its output is not a terminal and --log is not given", async () => {
    const { p, url } = await started([]);
    await fetch(`${url}/health`);
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(p.output()).not.toMatch(/GET \/health|request completed/);
    expect([logFormat(undefined, true), logFormat(undefined, false), logFormat("json", true)]).toEqual([
      "pretty",
      "off",
      "json",
    ]);
  });

  it("answers GET / with a page pointing to /docs, /openapi.json and /health: HTML for a browser, JSON otherwise", async () => {
    const { url } = await started([]);
    const json = await fetch(`${url}/`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({
      name: "Web Search, Crawl and Extraction Service",
      version: "1.0.0",
      docs: `${url}/docs`,
      openapi: `${url}/openapi.json`,
      health: `${url}/health`,
    });
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const html = await fetch(`${url}/`, { headers: { accept: browser } });
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await html.text();
    for (const path of ["/docs", "/openapi.json", "/health"]) expect(page).toContain(`<a href="${url}${path}">`);
    // an unknown path still answers 404 in the contract's error shape
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });

  it("refuses a --spec that is not there in one line, exit 2", async () => {
    current = run(["--spec", "missing.yaml"]);
    expect(await current.exited).toBe(2);
    expect(current.output().trim()).toBe(
      "plumbline mock: --spec missing.yaml: no such file (ENOENT); give the path of an OpenAPI 3.1 document (YAML or JSON)",
    );
  });
});
