// The reference as a user runs it: the platform over the SQL store, keys administered from the CLI while the
// server runs (issue 5 "Platform"). Engines are covered by their own tests.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../../../../test-support/cli-process.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-"));
let ref: RunningReference;

async function cli(...args: string[]) {
  const { stdout } = await run(process.execPath, [BIN, "reference", "keys", ...args, "--data-dir", dir]);
  return stdout;
}

async function call(path: string, key: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${ref.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  ref = await startReference({ port: 0, dataDir: dir, keys: [{ key: "seed-key", credits: 5 }] });
});
afterAll(async () => {
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the reference platform over SQLite", () => {
  it("seeds accounts from --key and reports their balance", async () => {
    expect((await call("/usage", "seed-key")).body).toMatchObject({ usage: 5, credential_type: "api_key" });
  });

  it("answers the contract's challenges: 402 for anonymous, 401 for an unknown key", async () => {
    const anon = await call("/search", null, { query: "q" });
    expect(anon.status).toBe(402);
    expect(anon.headers.get("www-authenticate")).toMatch(/^Payment id=/);
    const bad = await call("/search", "nope", { query: "q" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("answers /ask and /feedback 404 under the seed (the default): they are the live contract's (D-live-version)", async () => {
    for (const [path, body] of [
      ["/ask", { query: "fastify on github" }],
      ["/feedback", { message: "hello" }],
    ] as const) {
      const r = await call(path, "seed-key", body);
      expect([path, r.status, r.body.code]).toEqual([path, 404, "PLB_ROUTE_NOT_FOUND"]);
    }
    expect((await call("/usage", "seed-key")).body.usage).toBe(5);
  });

  it("does not charge an operation that is not implemented yet (502)", async () => {
    const r = await call("/trending", "seed-key", { search_service: "github" });
    expect(r.status).toBe(502);
    expect((await call("/usage", "seed-key")).body.usage).toBe(5);
  });

  it("administers keys from the CLI against the running server's database", async () => {
    const created = await cli("create", "--credits", "7");
    const key = /key \(shown once\): (\S+)/.exec(created)?.[1] ?? "";
    expect(key).toMatch(/^plb_/);
    expect((await call("/usage", key)).body.usage).toBe(7);
    expect(await cli("credit", key.slice(0, 12), "3")).toContain("balance now 10");
    expect((await call("/usage", key)).body.usage).toBe(10);
    const listed = await cli("list");
    expect(listed).toContain(`${key.slice(0, 12)}…`);
    expect(listed).not.toContain(key);
    const rotated = /new key \(shown once\): (\S+)/.exec(await cli("rotate", key))?.[1] ?? "";
    expect((await call("/usage", key)).status).toBe(401);
    expect((await call("/usage", rotated)).body.usage).toBe(10);
    await cli("revoke", rotated);
    expect((await call("/usage", rotated)).status).toBe(401);
  }, 90_000); // six CLI processes, each loading the sources through tsx

  it("refuses bad keys-command arguments with exit code 2", async () => {
    await expect(cli("credit", "plb_nothing", "x")).rejects.toMatchObject({ code: 2 });
    await expect(cli("frobnicate")).rejects.toMatchObject({ code: 2 });
  }, 90_000);
});

describe("several instances over one database", () => {
  it("count an account's requests together against its rate limit", async () => {
    const shared = mkdtempSync(join(tmpdir(), "plumbline-ref-pair-"));
    const options = {
      port: 0,
      dataDir: shared,
      keys: [{ key: "pair-key", credits: 5 }],
      rateLimits: { perAccount: 3 },
    };
    const one = await startReference(options);
    const two = await startReference(options);
    try {
      const usage = (r: RunningReference) => fetch(`${r.url}/usage`, { headers: { authorization: "Bearer pair-key" } });
      expect((await usage(one)).status).toBe(200);
      expect((await usage(two)).status).toBe(200);
      const third = await usage(one);
      expect(third.status).toBe(200);
      expect(third.headers.get("ratelimit")).toMatch(/;r=0;/);
      const refused = await usage(two);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await one.close();
      await two.close();
      rmSync(shared, { recursive: true, force: true });
    }
  }, 90_000);
});
