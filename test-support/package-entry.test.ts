// The package as an application imports it: plain Node, no loader flag, `import … from "plumbline"`,
// "plumbline/spec" and "plumbline/msw". Their names must be exactly the runtime exports of index.ts and spec/index.ts (the JS
// entries list them by hand), and the API must work from there: a mock started in process answers.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import * as api from "../index.ts";
import * as msw from "../packages/mock/src/msw/index.ts";
import * as spec from "../packages/contract/src/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const app = mkdtempSync(join(tmpdir(), "plumbline-consumer-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

it("works from plain Node through the package's exports, with every export of the TypeScript entries", async () => {
  mkdirSync(join(app, "node_modules"));
  symlinkSync(ROOT, join(app, "node_modules", "plumbline"), "dir");
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
  copyFileSync(fileURLToPath(new URL("./package-consumer.js", import.meta.url)), join(app, "main.js"));
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
