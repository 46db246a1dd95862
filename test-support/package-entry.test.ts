// The package as an application imports it: plain Node 20, no loader flag, `import … from "plumbline"`,
// "plumbline/spec" and "plumbline/msw". Their names must be exactly the runtime exports of index.ts and spec/index.ts (the JS
// entries list them by hand), and the API must work from there: a mock started in process answers.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import * as api from "../index.ts";
import * as msw from "../mock/msw/index.ts";
import * as spec from "../spec/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const app = mkdtempSync(join(tmpdir(), "plumbline-consumer-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

const CONSUMER = `
import * as api from "plumbline";
import * as spec from "plumbline/spec";
import * as msw from "plumbline/msw";
const defined = (m) => Object.keys(m).filter((k) => m[k] !== undefined).sort();
const mock = await api.startMock({ port: 0, keys: [{ key: "consumer-key", credits: 3 }] });
const usage = await (await fetch(mock.url + "/usage", { headers: { authorization: "Bearer consumer-key" } })).json();
await mock.close();
const contract = await spec.loadContract();
const handlers = await msw.createMockHandlers({ keys: [{ key: "consumer-key", credits: 3 }] });
await handlers.close();
// the reference parses pages in worker threads, which must load their TypeScript from plain Node too (issue 12)
const { createServer } = await import("node:http");
const site = createServer((q, s) => s.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>Consumer page</h1><p>Some words.</p></body></html>"));
await new Promise((r) => site.listen(0, "127.0.0.1", r));
const ref = await api.startReference({ port: 0, dataDir: "ref-data", keys: [{ key: "consumer-key", credits: 3 }], allowPrivateNetwork: true });
const crawl = await fetch(ref.url + "/crawl", {
  method: "POST",
  headers: { authorization: "Bearer consumer-key", "content-type": "application/json" },
  body: JSON.stringify({ url: "http://127.0.0.1:" + site.address().port + "/page", enableFallback: false }),
});
const crawled = { status: crawl.status, content: (await crawl.json()).results?.content };
await ref.close();
site.close();
console.log(JSON.stringify({ api: defined(api), spec: defined(spec), msw: defined(msw), handlers: handlers.handlers.length, usage, operations: contract.operations.length, crawled }));
`;

it("works from plain Node through the package's exports, with every export of the TypeScript entries", async () => {
  mkdirSync(join(app, "node_modules"));
  symlinkSync(ROOT, join(app, "node_modules", "plumbline"), "dir");
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
  writeFileSync(join(app, "main.js"), CONSUMER);
  const { stdout } = await promisify(execFile)(process.execPath, ["main.js"], { cwd: app });
  const out = JSON.parse(stdout.trim().split("\n").at(-1) as string);
  expect(out.api).toEqual(Object.keys(api).sort());
  expect(out.spec).toEqual(Object.keys(spec).sort());
  expect(out.msw).toEqual(Object.keys(msw).sort());
  expect(out.handlers).toBe(1);
  expect(out.usage).toMatchObject({ usage: 3 });
  expect(out.operations).toBeGreaterThan(0);
  expect(out.crawled).toMatchObject({ status: 200, content: expect.stringContaining("Some words.") });
}, 60_000);
