import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BIN } from "../../../test-support/cli-process.ts";

const run = promisify(execFile);

async function plumbline(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe("plumbline CLI", () => {
  it("validates the spec and prints its summary (the README's main job)", async () => {
    const r = await plumbline("spec");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "Web Search, Crawl and Extraction Service 1.0.0 (OpenAPI 3.1.0), profile primary: valid",
    );
    expect(r.stdout).toMatch(/POST \/extract\s+extract\s+required\s+10 cr \/ 0\.03 mpp/);
  }, 90_000);

  it("prints a machine-readable summary with --json", async () => {
    const r = await plumbline("spec", "--json", "--profile", "alt-bounds");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.profile).toBe("alt-bounds");
    // the 11 operations, /openapi.json and the 6 discovery documents (issue 15 added 5)
    expect(json.operations).toHaveLength(18);
  }, 90_000);

  it("says the derived files are up to date", async () => {
    expect((await plumbline("spec", "decisions", "--check")).code).toBe(0);
  }, 90_000);

  it("exits 2 with usage on bad arguments", async () => {
    expect((await plumbline()).code).toBe(2);
    const unknown = await plumbline("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command");
    expect((await plumbline("spec", "--nope")).code).toBe(2);
    expect((await plumbline("spec", "--profile", "nope")).code).toBe(2);
  }, 90_000);
});
