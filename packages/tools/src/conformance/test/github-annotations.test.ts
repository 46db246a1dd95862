// `plumbline conform --reporter github` (the default when GITHUB_ACTIONS=true): one ::error per failing check with
// its first finding, a run that could not proceed annotated once, nothing with --reporter text.
import { createServer } from "node:net";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../../../test-support/cli-process.ts";
import { type RunningProxy, startFaultProxy } from "./fault-proxy.ts";

const KEY = "annotations-key";
let mock: RunningMock;
let faulty: RunningProxy;

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 100_000 }], rateLimits: { perAccount: 0 } });
  // no x-request-id on any answer
  faulty = await startFaultProxy(mock.url, {
    rewrite: (_req, res) => ({ ...res, headers: { ...res.headers, "x-request-id": undefined } }),
  });
});
afterAll(async () => {
  await faulty.close();
  await mock.close();
});

const annotations = (out: string) => out.split("\n").filter((l) => /^::(error|warning|notice)\b/.test(l));

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe("plumbline conform --reporter github", () => {
  const args = ["conform", "--target", "", "--api-key", KEY, "--only", "x-request-id", "--no-report"];

  it("annotates the failing check with its id, section and first finding, exit 1", async () => {
    args[2] = faulty.url;
    const r = await runCli([...args, "--reporter", "github"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const lines = annotations(r.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error title=conform x-request-id \(Errors \(request id\)\)::.+x-request-id/);
    expect(lines[0]).not.toContain("\n");
  });

  it("is on by default under GitHub Actions, off with --reporter text", async () => {
    args[2] = faulty.url;
    const byDefault = await runCli(args, { env: { GITHUB_ACTIONS: "true" } });
    expect(annotations(byDefault.stdout)).toHaveLength(1);
    const text = await runCli([...args, "--reporter", "text"], { env: { GITHUB_ACTIONS: "true" } });
    expect(text.code).toBe(1);
    expect(annotations(text.stdout)).toEqual([]);
  });

  it("annotates a run that could not proceed once, exit 2", async () => {
    args[2] = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli([...args, "--reporter", "github"]);
    expect(r.code).toBe(2);
    const lines = annotations(r.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error title=plumbline conform could not run::.+/);
  });
});
