// `plumbline reference --package-store s3://…` as an operator starts it: the flags reach the S3 store (a deepcrawl's
// package lands in the bucket under the prefix), credentials come from the environment and are never printed, and a
// malformed store URL or a bucket that does not answer stops start-up with exit 2 and a message saying why.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plumblineInProcess } from "../../../../test-support/cli-in-process.ts";
import { type CliProcess, startCliProcess } from "../../../../test-support/cli-process.ts";
import { pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { startTestSite, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { type S3StandIn, startS3StandIn } from "../../../../test-support/s3-stand-in.ts";

const SECRET = "stand-in-secret-never-printed";
const KEY = "s3-cli-key";
let s3: S3StandIn;
let site: TestSite;
let dir: string;
let ref: CliProcess | undefined;

beforeAll(async () => {
  s3 = await startS3StandIn({ buckets: ["cli-packages"] });
  site = await startTestSite({ pages: 3 });
  dir = mkdtempSync(join(tmpdir(), "plumbline-s3-cli-"));
  // the child inherits these: the SDK's standard chain reads them (put back afterwards: a Vitest worker runs other
  // files in this process after this one)
  process.env.AWS_ACCESS_KEY_ID = "stand-in-id";
  process.env.AWS_SECRET_ACCESS_KEY = SECRET;
});
const awsBefore = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
afterAll(async () => {
  for (const [name, value] of [
    ["AWS_ACCESS_KEY_ID", awsBefore.id],
    ["AWS_SECRET_ACCESS_KEY", awsBefore.secret],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await ref?.stop();
  await site?.close();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `plumbline ARGS` in this process (it fails before listening): the exit code and what it printed */
const run = plumblineInProcess;

const storeFlags = (bucket: string) => [
  "--package-store",
  `s3://${bucket}/ops/zips/`,
  "--s3-endpoint",
  s3.url,
  "--s3-force-path-style",
  "--s3-region",
  "eu-west-3",
];

describe("plumbline reference --package-store", () => {
  it("writes deepcrawl packages to the bucket, with credentials from the environment", {
    timeout: 90_000,
  }, async () => {
    let out = "";
    ref = await startCliProcess(
      ["reference", "--port", "0", "--data-dir", dir, "--allow-private-network", "--key", `${KEY}:50`]
        .concat(["--deepcrawl-delay-ms", "0", "--log"])
        .concat(storeFlags("cli-packages")),
      "reference",
    );
    ref.child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    expect(s3.log).toContain("HeadBucket");
    const res = await startDeepcrawl(ref.url, KEY, { url: `${site.url}/` });
    const { taskId } = (await res.json()) as { taskId: string };
    expect((await pollUntil(ref.url, taskId, 60_000, KEY)).last.status).toBe("completed");
    expect(s3.keys("cli-packages")).toEqual([`ops/zips/deepcrawl/${taskId}/1.zip`]);
    expect(out).not.toContain(SECRET);
  });

  it("refuses a malformed store URL with exit 2", async () => {
    const r = await run(["reference", "--port", "0", "--data-dir", dir, "--package-store", "s3:/cli-packages"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("--package-store takes s3://BUCKET[/PREFIX] (a bucket name of 3-63 lowercase");
  });

  it("stops start-up with exit 2 when the bucket does not answer", { timeout: 60_000 }, async () => {
    const r = await run(["reference", "--port", "0", "--data-dir", dir].concat(storeFlags("no-such-bucket")));
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      `the package store s3://no-such-bucket/ops/zips at ${s3.url} cannot be used: the bucket does not exist (404)`,
    );
    expect(r.out).not.toContain("listening on");
    expect(r.out).not.toContain(SECRET);
  });
});
