// An independent judge: the mock's traffic through `prism proxy --errors`, which answers with a VIOLATIONS error
// whenever a response breaks spec/openapi.yaml (issue 3 quality bar).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROKE, KEY, useMock } from "./harness.ts";

const h = useMock({ clock: "manual", deepcrawlSteps: { queuedMs: 0, waitingMs: 0, processingMs: 0 } });
const PRISM = fileURLToPath(new URL("../../node_modules/.bin/prism", import.meta.url));
const SPEC = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));

let prism: ChildProcess;
let prismUrl = "";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  prismUrl = `http://127.0.0.1:${port}`;
  prism = spawn(PRISM, ["proxy", SPEC, h.mock.url, "--errors", "-p", String(port), "-h", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${log}`)), 60_000);
    prism.stdout?.on("data", (d) => {
      log += d;
      if (log.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    prism.stderr?.on("data", (d) => {
      log += d;
    });
    prism.on("exit", (code) => reject(new Error(`prism exited with ${code}:\n${log}`)));
  });
}, 70_000);

afterAll(() => {
  prism?.kill("SIGTERM");
});

async function through(method: string, path: string, body?: unknown, key: string = KEY, prefer?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (prefer) headers.prefer = prefer;
  const res = await fetch(`${prismUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = Buffer.from(await res.arrayBuffer()).toString("latin1");
  return { status: res.status, text, violations: res.headers.get("sl-violations") };
}

describe("the mock's responses through prism proxy --errors", () => {
  it("break no rule of the spec, for every operation's success and error answers", async () => {
    const started = await through("POST", "/deepcrawl", { url: "https://example.com/" });
    const taskId = JSON.parse(started.text).taskId as string;
    const calls: Array<[string, string, unknown?, string?, string?]> = [
      ["POST", "/search", { query: "prism", max_results: 3, crawl_results: 1, image: true }],
      ["POST", "/search", [{ query: "a" }, { query: "__fail_502__" }]],
      ["POST", "/news", { query: "prism", search_service: "reuters" }],
      ["POST", "/news", [{ query: "a" }, { query: "b" }]],
      ["POST", "/crawl", { url: "https://example.com/docs" }],
      ["POST", "/crawl", [{ url: "https://example.com/a" }, { url: "https://example.com/b" }]],
      ["POST", "/crawl", { url: "https://example.com/status/404" }],
      ["POST", "/screenshot", { url: "https://example.com/", format: "jpeg" }],
      ["POST", "/sitemap", { url: "https://example.com/", type: "all" }],
      ["POST", "/trending", { search_service: "hackernews", max_results: 3 }],
      [
        "POST",
        "/extract",
        { url: "https://example.com/", response_format: { type: "object", properties: { n: { type: "integer" } } } },
      ],
      ["GET", `/deepcrawl/status/${taskId}`],
      ["GET", "/deepcrawl/status/dc_unknown"],
      ["GET", "/health"],
      ["GET", "/usage?period=month"],
      ["GET", "/openapi.json"],
      ["GET", "/.well-known/oauth-protected-resource"],
      ["POST", "/extract", { url: "https://example.com/" }, BROKE],
      ["POST", "/search", { query: "q" }, KEY, "code=429"],
      ["POST", "/search", { query: "q" }, KEY, "code=502"],
      ["POST", "/screenshot", { url: "https://example.com/" }, KEY, "code=504"],
      ["POST", "/trending", { search_service: "github" }, KEY, "variability=max"],
      ["POST", "/search", [{ query: "a" }, { query: "b" }, { query: "c" }], KEY, "variability=max"],
    ];
    const problems: string[] = [];
    for (const [method, path, body, key, prefer] of calls) {
      const r = await through(method, path, body, key, prefer);
      if (r.violations || r.text.includes("stoplight.io/prism/errors")) {
        problems.push(`${method} ${path} ${prefer ?? ""} → ${r.status} ${r.violations ?? ""} ${r.text.slice(0, 400)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
