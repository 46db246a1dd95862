// Crash safety with the packages in a bucket (issue 11): an instance killed while uploading a package cannot abort
// its multipart upload. Here that instance's leftovers are laid out as it left them (its expired lease on the task,
// its pending upload in the bucket); the reference that takes the task over aborts that upload and writes the one
// package of the task.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateMultipartUploadCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { download, pollUntil } from "../../../../test-support/deepcrawl-client.ts";
import { startTestSite, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { type S3StandIn, startS3StandIn } from "../../../../test-support/s3-stand-in.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { openDatabase } from "../store/open-database.ts";
import { createSqlAccounts } from "../store/sql-accounts.ts";
import { createSqlDeepcrawlStore } from "../store/sql-deepcrawl.ts";

const BUCKET = "takeover-packages";
const TASK = "dc_killed_while_uploading";
const KEY = "takeover-key";
const credentials = { accessKeyId: "stand-in", secretAccessKey: "stand-in" };
let s3: S3StandIn;
let site: TestSite;
let dir: string;
let ref: RunningReference | undefined;

beforeAll(async () => {
  s3 = await startS3StandIn({ buckets: [BUCKET] });
  site = await startTestSite({ pages: 4 });
  dir = mkdtempSync(join(tmpdir(), "plumbline-s3-takeover-"));
});
afterAll(async () => {
  await ref?.close();
  await site?.close();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("aborts the upload a killed instance left and writes the task's one package", { timeout: 60_000 }, async () => {
  // the dead instance: it claimed the task (its lease long expired) and had sent one part of attempt 1's package
  const opened = await openDatabase({ dataDir: dir });
  const store = await createSqlDeepcrawlStore(opened.db, opened.dialect);
  // the account that started it, whose key polls it (D-status-auth)
  const { accountId } = await createSqlAccounts(opened.db).createAccount({ credits: 0, key: KEY });
  await store.insertTask({
    task_id: TASK,
    account_id: accountId,
    url: `${site.url}/`,
    type: "sitemap",
    message: "Queued",
    created_at: new Date().toISOString(),
  });
  expect(await store.claim("w_dead", Date.now() - 600_000, 1000)).toMatchObject({ attempts: 1 });
  await opened.close();
  const client = new S3Client({ endpoint: s3.url, region: "us-east-1", forcePathStyle: true, credentials });
  const Key = `deepcrawl/${TASK}/1.zip`;
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
  await client.send(
    new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: Buffer.alloc(5 << 20) }),
  );
  client.destroy();
  expect(s3.pendingUploads()).toHaveLength(1);

  ref = await startReference({
    port: 0,
    dataDir: dir,
    allowPrivateNetwork: true,
    packageS3: { bucket: BUCKET, endpoint: s3.url, forcePathStyle: true, credentials },
    deepcrawlSettings: { hostDelayMs: 0, pollMs: 50 },
  });
  const { last } = await pollUntil(ref.url, TASK, 30_000, KEY);
  expect(last.status).toBe("completed");
  expect(s3.pendingUploads()).toEqual([]);
  expect(s3.keys(BUCKET)).toEqual([`deepcrawl/${TASK}/2.zip`]);
  const { manifest } = await download(last.zipUrl as string);
  expect((manifest as { pages: unknown[] }).pages).toHaveLength(4);
});
