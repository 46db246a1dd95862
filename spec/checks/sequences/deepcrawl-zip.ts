// A deepcrawl task's package (interface-spec "Deepcrawl task", "States and transitions"; D-deepcrawl-states,
// D-deepcrawl-zip): a completed task names its package (r2Key, zipUrl), and, completed being an end, its zip is the
// same package every time it is fetched (what the zip holds is deepcrawl-zip-valid's). A pure function compares two
// downloads' fingerprints; the tracker remembers, per zip link (its path: the query of a signed link changes from
// poll to poll), the fingerprint of the first download, for at most MAX_ZIPS links (least recently fetched dropped
// first: 10,000 links of about 100 bytes each).
import type { ExchangeContext, ExchangeRule, SequenceJudge, SequenceRule, Violation } from "../types.ts";

export const completedPackage: ExchangeRule = {
  kind: "exchange",
  id: "deepcrawl-completed-package",
  title: "A completed deepcrawl task names its package: r2Key (a locator) and zipUrl (an http(s) URL)",
  side: "response",
  severity: "critical",
  basis: "Deepcrawl task; States and transitions; D-deepcrawl-states; D-deepcrawl-zip",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (ctx.op?.operationId !== "deepcrawlStatus" || ctx.status !== 200 || !ctx.json?.ok) return [];
    const body = ctx.json.value as { status?: unknown; r2Key?: unknown; zipUrl?: unknown } | null;
    if (body?.status !== "completed") return [];
    const out: Violation[] = [];
    if (typeof body.r2Key !== "string" || body.r2Key === "")
      out.push({
        rule: this.id,
        message: "a completed task without r2Key",
        expected: "r2Key: a locator",
        actual: JSON.stringify(body.r2Key) ?? "(none)",
      });
    if (typeof body.zipUrl !== "string" || !/^https?:\/\//.test(body.zipUrl))
      out.push({
        rule: this.id,
        message: "a completed task without a zipUrl",
        expected: "zipUrl: an http(s) URL",
        actual: JSON.stringify(body.zipUrl) ?? "(none)",
      });
    return out;
  },
};

export const ZIP_STAYS_RULE_ID = "deepcrawl-zip-stays";
export const MAX_ZIPS = 10_000;

export interface ZipFingerprint {
  bytes: number;
  /** FNV-1a (32 bits) of the bytes: different fingerprints are different packages, never the other way round */
  hash: number;
}

export function fingerprint(bytes: Uint8Array): ZipFingerprint {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return { bytes: bytes.length, hash: h };
}

/** Two downloads of one task's zip: the same package, or a violation. */
export function judgeZipDownloads(path: string, first: ZipFingerprint, later: ZipFingerprint): Violation[] {
  if (first.bytes === later.bytes && first.hash === later.hash) return [];
  return [
    {
      rule: ZIP_STAYS_RULE_ID,
      message: `the zip at ${path} is another package than on its first download`,
      expected: `${first.bytes} bytes, FNV-1a ${first.hash.toString(16)}`,
      actual: `${later.bytes} bytes, FNV-1a ${later.hash.toString(16)}`,
    },
  ];
}

export function createZipTracker(): SequenceJudge {
  const seen = new Map<string, ZipFingerprint>();
  return {
    observe(ctx: ExchangeContext) {
      if (ctx.route !== "deepcrawl-zip" || ctx.status !== 200 || !ctx.bytes) return [];
      const path = ctx.exchange.request.path.split("?")[0];
      const now = fingerprint(ctx.bytes);
      const first = seen.get(path);
      if (first) {
        seen.delete(path);
        seen.set(path, first);
        return judgeZipDownloads(path, first, now);
      }
      seen.set(path, now);
      if (seen.size > MAX_ZIPS) seen.delete(seen.keys().next().value as string);
      return [];
    },
  };
}

export const zipStays: SequenceRule = {
  kind: "sequence",
  id: ZIP_STAYS_RULE_ID,
  title: "A completed task's zip is the same package on every download",
  side: "response",
  severity: "major",
  basis: "States and transitions; D-deepcrawl-states; D-deepcrawl-zip",
  passive: true,
  needs: ["response-body"],
  create: () => createZipTracker(),
};
