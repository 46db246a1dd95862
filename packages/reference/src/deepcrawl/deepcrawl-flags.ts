// The `plumbline reference` flags of the deepcrawl (issue 11): limits, politeness, lease, link expiry and where
// packages go (a directory, or an S3-compatible bucket: package-store-flags.ts), as startReference options. The
// flags and their bounds are declared in reference/cli.ts; the values arrive parsed.
import { type PackageStoreFlagValues, packageStoreOptions } from "./package-store-flags.ts";
import type { ReferenceDeepcrawlOptions } from "./reference-deepcrawl.ts";
import type { S3PackageStoreOptions } from "./s3-package-store-options.ts";

export interface DeepcrawlFlagValues extends PackageStoreFlagValues {
  deepcrawlMaxPages?: number;
  deepcrawlMaxMb?: number;
  deepcrawlMaxSeconds?: number;
  deepcrawlConcurrency?: number;
  deepcrawlDelayMs?: number;
  deepcrawlLeaseSeconds?: number;
  zipUrlTtl?: number;
}

const ms = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.round(seconds * 1000));

export function deepcrawlOptions(values: DeepcrawlFlagValues): {
  packageDir?: string;
  packageS3?: S3PackageStoreOptions;
  deepcrawlSettings: NonNullable<ReferenceDeepcrawlOptions["settings"]>;
} {
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const settings: NonNullable<ReferenceDeepcrawlOptions["settings"]> = {
    limits: defined({
      maxPages: values.deepcrawlMaxPages === undefined ? undefined : Math.floor(values.deepcrawlMaxPages),
      maxBytes: values.deepcrawlMaxMb === undefined ? undefined : Math.floor(values.deepcrawlMaxMb * 1024 * 1024),
      maxDurationMs: ms(values.deepcrawlMaxSeconds),
    }),
    ...defined({
      concurrency: values.deepcrawlConcurrency,
      hostDelayMs: values.deepcrawlDelayMs,
      leaseMs: ms(values.deepcrawlLeaseSeconds),
      linkTtlMs: ms(values.zipUrlTtl),
    }),
  };
  return {
    ...(values.packageDir ? { packageDir: values.packageDir } : {}),
    ...packageStoreOptions(values),
    deepcrawlSettings: settings,
  };
}
