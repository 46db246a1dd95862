// Which package store a reference uses (issue 11 "Scale-out"): the directory (`packageDir`, default beside the SQLite
// database) unless an S3-compatible bucket is configured (`packageS3`). The bucket is checked before the reference
// starts, so a wrong name, endpoint or credential stops start-up with a clear message instead of failing every task.
import { createFilePackageStore, defaultPackageDir, type PackageStore } from "./package-store.ts";
import type { S3PackageStoreOptions } from "./s3-package-store-options.ts";

export interface PackageStoreChoice {
  dataDir?: string;
  packageDir?: string;
  packageS3?: S3PackageStoreOptions;
}

export async function openPackageStore(o: PackageStoreChoice): Promise<PackageStore> {
  if (!o.packageS3) return createFilePackageStore(o.packageDir ?? defaultPackageDir(o.dataDir));
  if (o.packageDir !== undefined)
    throw new Error("packages go to one store: give a package directory or a bucket, not both");
  // loaded only when a bucket is configured: the AWS SDK is not on the path of the default start
  const { createS3PackageStore } = await import("./s3-package-store.ts");
  const store = createS3PackageStore(o.packageS3);
  try {
    await store.check();
  } catch (err) {
    store.close();
    throw err;
  }
  return store;
}
