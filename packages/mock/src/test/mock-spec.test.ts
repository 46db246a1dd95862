// `plumbline mock --spec FILE`: the mock serves the version of the contract a client pins. A newer version
// (test-support/evolved-spec.ts: POST /images added, search_service `naver` added): the added operation is answered
// from the document (its example, Prefer: example=, or a value generated from the schema), validated, priced and
// charged; the added enum value is accepted. An older version (main before the discovery documents): what it
// does not define answers 404 in the contract's error shape. Every answer validates against the served document.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDED_SEARCH_SERVICE, writeEvolvedSpec } from "../../../../test-support/evolved-spec.ts";
import { type MockProcess, startMockProcess } from "../../../../test-support/mock-process.ts";
import { startMock } from "../start-mock.ts";

const KEY = "spec-key";
let evolved: string;
let mock: MockProcess;
let contract: Contract;

async function call(url: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    body: (await res.json()) as Record<string, unknown>,
  };
}

beforeAll(async () => {
  evolved = writeEvolvedSpec();
  contract = await loadContract({ path: evolved });
  mock = await startMockProcess(["--key", `${KEY}:100`, "--spec", evolved]);
});
afterAll(async () => {
  await mock?.stop();
});

describe("plumbline mock --spec with a newer version of the contract", () => {
  it("answers the added operation with the document's example, charges its price, and the answer validates", async () => {
    const r = await call(mock.url, "/images", { query: "lighthouse" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      results: [
        { url: "https://images.example.com/lighthouse-1.jpg", width: 1600, height: 900 },
        { url: "https://images.example.com/lighthouse-2.jpg", width: 1200, height: 800 },
      ],
    });
    expect(contract.validators.checkResponse("images", 200, r.type, r.body)).toBeNull();
    expect((await call(mock.url, "/usage")).body.usage).toBe(98);
  });

  it("Prefer: dynamic=true generates a valid answer from the schema; an unknown example name is a 400", async () => {
    const r = await call(mock.url, "/images", { query: "harbour" }, { prefer: "dynamic=true, seed=7" });
    expect(r.status).toBe(200);
    expect(contract.validators.checkResponse("images", 200, r.type, r.body)).toBeNull();
    const again = await call(mock.url, "/images", { query: "harbour" }, { prefer: "dynamic=true, seed=7" });
    expect(again.body).toEqual(r.body);
    const bad = await call(mock.url, "/images", { query: "harbour" }, { prefer: "example=nope" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: "PLB_BAD_VALUE",
      message: 'No example "nope" for images (known: lighthouse)',
    });
  });

  it("validates the added operation's body as the document says (422 naming the field, nothing charged)", async () => {
    const before = (await call(mock.url, "/usage")).body.usage;
    const r = await call(mock.url, "/images", { query: "x", max_results: 21 });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: "PLB_VALIDATION_FAILED",
      errors: [{ field: "/max_results", code: "maximum" }],
    });
    expect((await call(mock.url, "/usage")).body.usage).toBe(before);
  });

  it("accepts the added search_service value, which the current contract's mock refuses", async () => {
    const r = await call(mock.url, "/search", { query: "seoul food", search_service: ADDED_SEARCH_SERVICE });
    expect(r.status).toBe(200);
    expect((r.body.searchParameters as Record<string, unknown>).search_service).toBe(ADDED_SEARCH_SERVICE);
    const current = await startMock({ port: 0, keys: [{ key: KEY, credits: 10 }] });
    try {
      const refused = await call(current.url, "/search", { query: "seoul food", search_service: ADDED_SEARCH_SERVICE });
      expect(refused.status).toBe(422);
      const missing = await call(current.url, "/images", { query: "x" });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe("PLB_ROUTE_NOT_FOUND");
    } finally {
      await current.close();
    }
  });
});

describe("plumbline mock --spec with an older version of the contract", () => {
  it("serves main's document before the discovery documents: those routes answer 404, the rest as before", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const text = execFileSync("git", ["show", "45d74f3:spec/openapi.yaml"], { cwd: root, encoding: "utf8" });
    const path = join(mkdtempSync(join(tmpdir(), "plb-older-")), "openapi.yaml");
    writeFileSync(path, text);
    const older = await startMock({ port: 0, spec: path, keys: [{ key: KEY, credits: 10 }] });
    try {
      const catalog = await call(older.url, "/.well-known/api-catalog");
      expect(catalog.status).toBe(404);
      expect(catalog.body.code).toBe("PLB_ROUTE_NOT_FOUND");
      const served = await call(older.url, "/openapi.json");
      expect(Object.keys(served.body.paths as object)).not.toContain("/.well-known/api-catalog");
      const search = await call(older.url, "/search", { query: "hello" });
      expect(search.status).toBe(200);
      expect(older.contract.validators.checkResponse("search", 200, search.type, search.body)).toBeNull();
    } finally {
      await older.close();
    }
  });
});
