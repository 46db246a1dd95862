// An independent judge: the mock's traffic through `prism proxy --errors`, which answers with a VIOLATIONS error
// whenever a response breaks spec/openapi.yaml (issue 3 quality bar).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPrism, startPrism } from "../../../../test-support/prism.ts";
import { BROKE, KEY, useMock } from "./harness.ts";

const h = useMock({ clock: "manual", deepcrawlSteps: { queuedMs: 0, waitingMs: 0, processingMs: 0 } });
let prism: RunningPrism;
let prismUrl = "";

beforeAll(async () => {
  prism = await startPrism(h.mock.url, ["--errors"]);
  prismUrl = prism.url;
}, 70_000);

afterAll(() => {
  prism?.stop();
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
