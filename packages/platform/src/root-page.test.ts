// GET / on the reference (the route is the platform's, shared with the mock: mock/test/request-log.test.ts): a
// pointer to /docs, /openapi.json and /health, HTML for a browser and JSON otherwise, and no contract operation.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import { type RunningReference, startReference } from "@plumbline-kit/reference/start-reference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let ref: RunningReference;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-root-"));
  ref = await startReference({ port: 0, dataDir: dir });
}, 60_000);
afterAll(async () => {
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET / on the reference", () => {
  it("answers JSON naming /docs, /openapi.json and /health to a client, and a page to a browser", async () => {
    const json = await fetch(`${ref.url}/`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(json.headers.get("vary")).toMatch(/accept/i);
    expect(await json.json()).toMatchObject({
      docs: `${ref.url}/docs`,
      openapi: `${ref.url}/openapi.json`,
      health: `${ref.url}/health`,
    });
    const html = await fetch(`${ref.url}/`, { headers: { accept: "text/html,*/*;q=0.8" } });
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await html.text()).toContain(`<a href="${ref.url}/docs">`);
  });

  it("is not an operation of the contract", async () => {
    const contract = await loadContract();
    expect(contract.operations.map((op) => op.path)).not.toContain("/");
  });
});
