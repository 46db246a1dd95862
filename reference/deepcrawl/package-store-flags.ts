// The `plumbline reference` flags choosing an S3-compatible bucket for deepcrawl packages (issue 11 "Scale-out"),
// parsed into startReference's `packageS3`. Credentials are never a flag: the AWS SDK reads them from its standard
// chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles), so none is printed or kept in shell history.
import { checkS3Endpoint, parsePackageStoreUrl, type S3PackageStoreOptions } from "./s3-package-store-options.ts";

export const PACKAGE_STORE_FLAGS = {
  "package-store": { type: "string" as const },
  "s3-endpoint": { type: "string" as const },
  "s3-region": { type: "string" as const },
  "s3-force-path-style": { type: "boolean" as const },
};

export interface PackageStoreFlagValues {
  "package-dir"?: string;
  "package-store"?: string;
  "s3-endpoint"?: string;
  "s3-region"?: string;
  "s3-force-path-style"?: boolean;
}

export function packageStoreOptions(values: PackageStoreFlagValues): { packageS3?: S3PackageStoreOptions } {
  const url = values["package-store"];
  if (url === undefined) {
    for (const flag of ["s3-endpoint", "s3-region", "s3-force-path-style"] as const)
      if (values[flag] !== undefined) throw new Error(`--${flag} applies to --package-store s3://BUCKET[/PREFIX]`);
    return {};
  }
  if (values["package-dir"] !== undefined)
    throw new Error("--package-dir and --package-store both say where packages go: give one");
  const region = values["s3-region"];
  if (region !== undefined && !/^[A-Za-z0-9-]{1,64}$/.test(region))
    throw new Error(`--s3-region takes a region name such as us-east-1, not "${region}"`);
  const endpoint = values["s3-endpoint"];
  return {
    packageS3: {
      ...parsePackageStoreUrl(url),
      ...(endpoint !== undefined ? { endpoint: checkS3Endpoint(endpoint) } : {}),
      ...(region !== undefined ? { region } : {}),
      ...(values["s3-force-path-style"] ? { forcePathStyle: true } : {}),
    },
  };
}
