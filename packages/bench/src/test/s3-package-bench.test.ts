// `plumbline bench s3-package` end to end with a small package: the S3 stand-in in its child process takes the
// multipart upload and gives every byte back, and the figures agree with each other. No speed is judged.
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../test-support/cli-process.ts";
import type { S3PackageBenchResult } from "../s3-package-bench.ts";

const MIB = 1024 * 1024;

describe("bench s3-package", () => {
  it("streams the package into the store and reads every byte back", async () => {
    const run = await runCli(["bench", "s3-package", "--mib", "11", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as S3PackageBenchResult;
    // 11 chunks of 1 MiB less i % 7 bytes: more than two 5 MiB parts, so a real multipart upload
    const written = 11 * MIB - [0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3].reduce((a, b) => a + b, 0);
    expect(r).toMatchObject({ mib: 11, bytes: written, readBytes: written, intact: true });
    expect(r.uploadSeconds).toBeGreaterThan(0);
    expect(r.readSeconds).toBeGreaterThan(0);
    expect(r.uploadMiBPerSecond).toBeCloseTo(written / MIB / r.uploadSeconds, 6);
    expect(r.readMiBPerSecond).toBeCloseTo(written / MIB / r.readSeconds, 6);
    expect(r.rssBefore).toBeGreaterThan(0);
    expect(r.rssUploadPeak).toBeGreaterThanOrEqual(r.rssBefore);
    expect(r.rssPeak).toBeGreaterThanOrEqual(r.rssUploadPeak);
  }, 60_000);

  it("prints one line of figures without --json", async () => {
    const run = await runCli(["bench", "s3-package", "--mib", "1"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^1\.0 MiB up in \d+\.\d\d s \(\d+ MiB\/s\), read back 1\.0 MiB in \d+\.\d\d s \(\d+ MiB\/s\); RSS before [\d.]+ MiB, peak during the upload [\d.]+ MiB, peak overall [\d.]+ MiB\n$/,
    );
  }, 60_000);

  it("refuses a bad size with exit 2", async () => {
    const run = await runCli(["bench", "s3-package", "--mib", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("option '--mib <n>' argument '0' is invalid. Expected a whole number 1..4096.");
  });
});
