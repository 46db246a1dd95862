// The `plumbline reference` flags of the deepcrawl (issue 11): limits, politeness, lease, link expiry and where
// packages go (a directory, or an S3-compatible bucket: package-store-flags.ts), parsed into startReference options.
// Bad values are refused with the flag's name.
import { PACKAGE_STORE_FLAGS, type PackageStoreFlagValues, packageStoreOptions } from "./package-store-flags.ts";
import type { ReferenceDeepcrawlOptions } from "./reference-deepcrawl.ts";
import type { S3PackageStoreOptions } from "./s3-package-store-options.ts";

export const DEEPCRAWL_FLAGS = {
  "package-dir": { type: "string" as const },
  "deepcrawl-max-pages": { type: "string" as const },
  "deepcrawl-max-mb": { type: "string" as const },
  "deepcrawl-max-seconds": { type: "string" as const },
  "deepcrawl-concurrency": { type: "string" as const },
  "deepcrawl-delay-ms": { type: "string" as const },
  "deepcrawl-lease-seconds": { type: "string" as const },
  "zip-url-ttl": { type: "string" as const },
  ...PACKAGE_STORE_FLAGS,
};

type Values = {
  [K in Exclude<keyof typeof DEEPCRAWL_FLAGS, keyof typeof PACKAGE_STORE_FLAGS>]?: string;
} & PackageStoreFlagValues;
type NumberFlag = Exclude<keyof Values, keyof typeof PACKAGE_STORE_FLAGS | "package-dir">;

function num(values: Values, flag: NumberFlag, min: number, max: number): number | undefined {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    throw new Error(`--${flag} takes a number from ${min} to ${max}, not "${raw}"`);
  return n;
}

export function deepcrawlOptions(values: Values): {
  packageDir?: string;
  packageS3?: S3PackageStoreOptions;
  deepcrawlSettings: NonNullable<ReferenceDeepcrawlOptions["settings"]>;
} {
  const seconds = (flag: NumberFlag, min: number, max: number) => {
    const s = num(values, flag, min, max);
    return s === undefined ? undefined : Math.round(s * 1000);
  };
  const mb = num(values, "deepcrawl-max-mb", 0.001, 1_000_000);
  const pages = num(values, "deepcrawl-max-pages", 1, 10_000_000);
  const concurrency = num(values, "deepcrawl-concurrency", 1, 64);
  const settings: NonNullable<ReferenceDeepcrawlOptions["settings"]> = {
    limits: {
      ...(pages !== undefined ? { maxPages: Math.floor(pages) } : {}),
      ...(mb !== undefined ? { maxBytes: Math.floor(mb * 1024 * 1024) } : {}),
      ...(values["deepcrawl-max-seconds"] !== undefined
        ? { maxDurationMs: seconds("deepcrawl-max-seconds", 1, 86_400 * 7) }
        : {}),
    },
    ...(concurrency !== undefined ? { concurrency: Math.floor(concurrency) } : {}),
    ...(values["deepcrawl-delay-ms"] !== undefined
      ? { hostDelayMs: num(values, "deepcrawl-delay-ms", 0, 60_000) }
      : {}),
    ...(values["deepcrawl-lease-seconds"] !== undefined
      ? { leaseMs: seconds("deepcrawl-lease-seconds", 0.5, 3600) }
      : {}),
    ...(values["zip-url-ttl"] !== undefined ? { linkTtlMs: seconds("zip-url-ttl", 1, 86_400 * 365) } : {}),
  };
  return {
    ...(values["package-dir"] ? { packageDir: values["package-dir"] } : {}),
    ...packageStoreOptions(values),
    deepcrawlSettings: settings,
  };
}
