// Scale-out on PostgreSQL with the packages in an S3-compatible bucket (issue 11): two instances share one queue and
// ONE bucket (the S3 stand-in), each with a data directory of its own and no shared directory at all; A takes the
// task, B serves the zip through its signed zipUrl. A bucket that refuses the upload fails the task with that reason
// and leaves nothing behind. PLUMBLINE_REQUIRE_POSTGRES=1 (CI) makes a missing database a failure, not a skip.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { startTestSite, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { type S3StandIn, startS3StandIn } from "../../../../test-support/s3-stand-in.ts";
import type { ReferenceOptions } from "../start-reference.ts";
import { crawlOnAServeFromB, type Pair, startPair } from "../test/scale-out-pair.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const KEY = "s3-deepcrawl-key";
const BUCKET = "plumbline-packages";

describe("PostgreSQL for the deepcrawl scale-out test on S3", () => {
  it("is configured wherever it is required", () => {
    if (process.env.PLUMBLINE_REQUIRE_POSTGRES === "1") expect(PG, "PLUMBLINE_TEST_DATABASE_URL").toMatch(/^postgres/);
  });
});

describe.skipIf(!PG)("deepcrawl on PostgreSQL with two instances and one S3 bucket", () => {
  let s3: S3StandIn;
  let site: TestSite;
  let pair: Pair | undefined;
  const dirs: Record<string, string> = {};

  beforeAll(async () => {
    const url = await freshPostgresSchema(PG as string, "plumbline_deepcrawl_s3_test");
    s3 = await startS3StandIn({ buckets: [BUCKET] });
    site = await startTestSite({ pages: 12 });
    const options = (name: "a" | "b"): ReferenceOptions => {
      dirs[name] = mkdtempSync(join(tmpdir(), `plumbline-s3-${name}-`));
      return {
        port: 0,
        databaseUrl: url,
        dataDir: dirs[name],
        packageS3: {
          bucket: BUCKET,
          prefix: "scale-out",
          endpoint: s3.url,
          forcePathStyle: true,
          credentials: { accessKeyId: "stand-in", secretAccessKey: "stand-in" },
        },
        keys: [{ key: KEY, credits: 500 }],
        allowPrivateNetwork: true,
      };
    };
    pair = await startPair(options);
  });
  afterAll(async () => {
    await pair?.a.close();
    await pair?.b.close();
    await site?.close();
    await s3?.close();
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  });

  it("runs a task on one instance and serves its zip from the other, through the bucket", {
    timeout: 60_000,
  }, async () => {
    const p = pair as Pair;
    expect(p.a.deepcrawl?.packages.location).toBe(`s3://${BUCKET}/scale-out at ${s3.url}`);
    const taskId = await crawlOnAServeFromB(p, KEY, site);
    expect(s3.keys(BUCKET)).toEqual([`scale-out/deepcrawl/${taskId}/1.zip`]);
    expect(s3.pendingUploads()).toEqual([]);
    // nothing went through a directory: neither data directory holds a package
    for (const d of Object.values(dirs)) expect(existsSync(join(d, "packages"))).toBe(false);
    // B read the object from the bucket to serve it
    expect(s3.log).toContain(`GetObject scale-out/deepcrawl/${taskId}/1.zip`);
  });

  it("fails the task with the bucket's refusal, leaving no object and no upload", { timeout: 60_000 }, async () => {
    const p = pair as Pair;
    const before = s3.keys(BUCKET);
    s3.refuse("PutObject");
    try {
      const res = await startDeepcrawl(p.b.url, KEY, { url: `${site.url}/p/3`, type: "all" });
      const { taskId } = (await res.json()) as { taskId: string };
      const { last } = await pollUntil(p.b.url, taskId, 60_000, KEY);
      expect(last.status).toBe("failed");
      expect(last.error).toMatch(/storing the package deepcrawl\/dc_\w+\/1\.zip failed: AccessDenied/);
      expect(last.zipUrl ?? null).toBeNull();
      expect(s3.keys(BUCKET)).toEqual(before);
      expect(s3.pendingUploads()).toEqual([]);
      expect((await download(`${p.b.url}/deepcrawl/files/${taskId}.zip`)).res.status).toBe(404);
    } finally {
      s3.refuse(null);
    }
  });
});
