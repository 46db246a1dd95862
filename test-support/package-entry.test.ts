// The packages as an application imports them: plain Node, no loader flag, no plumbline-source condition, so each
// `@plumbline-kit/…` name resolves to its built dist/ (npm test builds first; run `npm run build` before this file
// alone). Their runtime exports must be exactly those of their TypeScript entries (a stale build fails here), and
// the API must work from there: a mock started in process answers, MSW handlers are made, the reference crawls
// with its worker threads running the built JavaScript. The tarballs, each installed alone, are
// tools/package-smoke.js's (.ci/run).
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import * as contract from "../packages/contract/src/index.ts";
import * as mock from "../packages/mock/src/index.ts";
import * as msw from "../packages/mock/src/msw/index.ts";
import * as reference from "../packages/reference/src/index.ts";
import * as tools from "../packages/tools/src/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const app = mkdtempSync(join(tmpdir(), "plumbline-consumer-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

it("works from plain Node through the packages' built exports, with every export of the TypeScript entries", async () => {
  for (const name of ["contract", "mock", "tools", "reference", "platform", "cli"])
    expect(
      existsSync(join(ROOT, "packages", name, "dist", "index.js")),
      `packages/${name}/dist: run npm run build`,
    ).toBe(true);
  mkdirSync(join(app, "node_modules"));
  // the application's node_modules hold the packages (their own dependencies resolve from the repository's)
  symlinkSync(join(ROOT, "node_modules", "@plumbline-kit"), join(app, "node_modules", "@plumbline-kit"), "dir");
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
  copyFileSync(fileURLToPath(new URL("./package-consumer.js", import.meta.url)), join(app, "main.js"));
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const { stdout } = await promisify(execFile)(process.execPath, ["main.js"], { cwd: app, env });
  const out = JSON.parse(stdout.trim().split("\n").at(-1) as string);
  expect(out.contract).toEqual(Object.keys(contract).sort());
  expect(out.mock).toEqual(Object.keys(mock).sort());
  expect(out.msw).toEqual(Object.keys(msw).sort());
  expect(out.tools).toEqual(Object.keys(tools).sort());
  expect(out.reference).toEqual(Object.keys(reference).sort());
  expect(out.handlers).toBe(1);
  expect(out.usage).toMatchObject({ usage: 3 });
  expect(out.operations).toBeGreaterThan(0);
  expect(out.crawled).toMatchObject({ status: 200, content: expect.stringContaining("Some words.") });
}, 60_000);
