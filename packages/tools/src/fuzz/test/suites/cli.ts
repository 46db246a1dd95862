// `plumbline fuzz` as a CI job runs it: exit codes 0 / 1 / 2, progress and reproduction on stdout, the report
// written. One run as a child process; the other exit codes through the dispatcher in process, which is cheaper.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plumblineInProcess } from "../../../../../../test-support/cli-in-process.ts";
import { runFuzz } from "../../run-fuzz.ts";
import { BIN, MOCK_KEY } from "../mock-process.ts";
import type { SharedMock } from "./shared-mock.ts";

const run = promisify(execFile);

async function plumbline(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, "fuzz", ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** The dispatcher in process: the same parsing and exit codes without another child process. */
const inProcess = (args: string[]) => plumblineInProcess(["fuzz", ...args]);

export function cliSuite(shared: SharedMock): void {
  let dir: string;

  describe("plumbline fuzz", () => {
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "plumbline-fuzz-cli-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("exits 0 when nothing is found, printing progress and throughput, and writes the report", async () => {
      const r = await plumbline(
        ...["--target", shared.mock.url, "--api-key", MOCK_KEY, "--seed", "3", "--runs", "40", "--ascii"],
        ...["--only", "trending,usage,sitemap", "--report-dir", join(dir, "report"), "--corpus-dir", join(dir, "c")],
      );
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/seed 3/);
      expect(r.stdout).toMatch(/✓ valid-input: \d+ cases/);
      expect(r.stdout).toMatch(/\d+ input cases in [\d.]+ s: \d+ cases\/s/);
      expect(readdirSync(join(dir, "report")).sort()).toEqual(["fuzz.json", "report.html"]);
    }, 90_000);

    it("exits 1 when a replayed entry fails (a known mock issue, replayed without its waiver)", async () => {
      const known = fileURLToPath(new URL("../../corpus/known/platform-proto-key-400.json", import.meta.url));
      const { code, out } = await inProcess([
        "--target",
        shared.mock.url,
        "--api-key",
        MOCK_KEY,
        "--replay",
        known,
        "--no-report",
      ]);
      expect(code).toBe(1);
      expect(out).toMatch(/\[negative-rejected\]/);
      expect(out).toMatch(/1 replayed, 1 failed/);
    });

    it("exits 2 when it cannot run: no target, bad arguments, an unknown operation, a refused key", async () => {
      const down = await inProcess(["--target", "http://127.0.0.1:9", "--api-key", "k", "--no-report"]);
      expect(down.code).toBe(2);
      expect(down.out).toMatch(
        /could not run: nothing answers at http:\/\/127\.0\.0\.1:9 \(connection refused\): is the server running\?/,
      );
      const envKey = process.env.PLUMBLINE_API_KEY;
      delete process.env.PLUMBLINE_API_KEY;
      try {
        expect((await inProcess(["--target", shared.mock.url])).code).toBe(2);
      } finally {
        if (envKey !== undefined) process.env.PLUMBLINE_API_KEY = envKey;
      }
      expect(
        (await inProcess(["--target", shared.mock.url, "--api-key", "k", "--time", "1", "--runs", "2"])).code,
      ).toBe(2);
      const quiet = { reportDir: null, corpusDir: null, timeSeconds: 1 };
      const bad = await runFuzz({ ...quiet, target: shared.mock.url, apiKey: MOCK_KEY, operations: ["nosuchop"] });
      expect([bad.exitCode, bad.report.error]).toEqual([2, "unknown operation(s) in --operations: nosuchop"]);
      const refused = await runFuzz({ ...quiet, target: shared.mock.url, apiKey: "not-a-key" });
      expect(refused.exitCode).toBe(2);
      expect(refused.report.error).toMatch(/the API key is refused/);
      const site = await runFuzz({ ...quiet, target: shared.mock.url, apiKey: MOCK_KEY, fixtureUrl: "file:///etc" });
      expect([site.exitCode, site.report.error]).toEqual([2, '--fixture-url takes an http(s) URL, not "file:///etc"']);
    });

    it("ignores --fixture-url on the mock, which fetches nothing, and says so", async () => {
      const { code, out } = await inProcess(
        [
          "--target",
          shared.mock.url,
          "--api-key",
          MOCK_KEY,
          "--runs",
          "10",
          "--operations",
          "crawl",
          "--no-report",
        ].concat([
          "--fixture-url",
          "http://127.0.0.1:9/",
          "--corpus-dir",
          join(dir, "c2"),
          "--properties",
          "valid-input",
        ]),
      );
      expect(code, out).toBe(0);
      expect(out).toMatch(/--fixture-url ignored: the target is the mock/);
    });
  });
}
