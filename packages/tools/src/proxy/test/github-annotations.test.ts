// `plumbline proxy --reporter github` (the default when GITHUB_ACTIONS=true): when the proxy closes, one annotation
// per operation and rule that saw violations, an error when --fail-on counts it, a warning when it does not.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../../../test-support/cli-process.ts";
import { startUpstreamDouble, type UpstreamDouble } from "./upstream-double.ts";

const KEY = "proxy-annotations-key";
let mock: RunningMock;
let broken: UpstreamDouble;
let dir: string;

// two searches through the proxy (whose answers the double breaks), then the command ends
const CLIENT = `
for (let i = 0; i < 2; i++)
  await fetch(process.env.PLUMBLINE_URL + "/search", {
    method: "POST",
    headers: { authorization: "Bearer ${KEY}", "content-type": "application/json" },
    body: JSON.stringify({ query: "annotated" }),
  });
`;

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 1000 }] });
  broken = await startUpstreamDouble(mock.url, { wrongTypes: true });
  dir = mkdtempSync(join(tmpdir(), "plumbline-proxy-annotations-"));
  writeFileSync(join(dir, "client.mjs"), CLIENT);
});
afterAll(async () => {
  await broken.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

const annotations = (out: string) => out.split("\n").filter((l) => /^::(error|warning|notice)\b/.test(l));
const proxy = (failOn: string, extra: string[], env: Record<string, string> = {}) =>
  runCli(
    ["proxy", "--upstream", broken.url, "--port", "0", "--fail-on", failOn, "--no-url-rewrite", ...extra].concat([
      "--report-dir",
      join(dir, `report-${failOn}`),
      "--",
      process.execPath,
      join(dir, "client.mjs"),
    ]),
    { env },
  );

describe("plumbline proxy --reporter github", () => {
  it("annotates the rule broken on search once (a violation per result title), with its count, as an error --fail-on response counts", async () => {
    const r = await proxy("response", ["--reporter", "github"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const lines = annotations(r.stdout);
    expect(lines).toEqual([
      expect.stringMatching(
        /^::error title=proxy response-schema \[search\]::\d+ violations of response-schema \(.+\); first, exchange #\d+: .+/,
      ),
    ]);
  });

  it("as a warning when --fail-on does not count it; on by default under GitHub Actions, off with text", async () => {
    const r = await proxy("never", [], { GITHUB_ACTIONS: "true" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(annotations(r.stdout)).toEqual([
      expect.stringMatching(/^::warning title=proxy response-schema \[search\]::\d+ violations/),
    ]);
    const text = await proxy("never", ["--reporter", "text"], { GITHUB_ACTIONS: "true" });
    expect(annotations(text.stdout)).toEqual([]);
  });
});
