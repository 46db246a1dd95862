// The `plumbline reference` flags choosing an S3-compatible bucket for deepcrawl packages (issue 11 "Scale-out"),
// as startReference's `packageS3`. Credentials are never a flag: the AWS SDK reads them from its standard chain
// (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles), so none is printed or kept in shell history. The
// flags are declared in reference/cli.ts (--package-store and --s3-endpoint checked there as they are parsed).
import type { S3PackageStoreOptions } from "./s3-package-store-options.ts";

export interface PackageStoreFlagValues {
  packageDir?: string;
  /** parsed `s3://BUCKET[/PREFIX]` (parsePackageStoreUrl) */
  packageStore?: { bucket: string; prefix?: string };
  s3Endpoint?: string;
  s3Region?: string;
  s3ForcePathStyle?: boolean;
}

export function packageStoreOptions(values: PackageStoreFlagValues): { packageS3?: S3PackageStoreOptions } {
  const store = values.packageStore;
  if (store === undefined) {
    const given = (["s3Endpoint", "s3Region", "s3ForcePathStyle"] as const).find((k) => values[k] !== undefined);
    if (given) {
      const flag = given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      throw new Error(`--${flag} applies to --package-store s3://BUCKET[/PREFIX]`);
    }
    return {};
  }
  if (values.packageDir !== undefined)
    throw new Error("--package-dir and --package-store both say where packages go: give one");
  return {
    packageS3: {
      ...store,
      ...(values.s3Endpoint !== undefined ? { endpoint: values.s3Endpoint } : {}),
      ...(values.s3Region !== undefined ? { region: values.s3Region } : {}),
      ...(values.s3ForcePathStyle ? { forcePathStyle: true } : {}),
    },
  };
}
