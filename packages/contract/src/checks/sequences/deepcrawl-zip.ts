// A deepcrawl task's package (interface-spec "Deepcrawl task", "States and transitions"; D-deepcrawl-states,
// D-deepcrawl-zip): a completed task names its package (r2Key, zipUrl), and, completed being an end, its zip is the
// same package every time it is fetched (what the zip holds is deepcrawl-zip-valid's). A pure function compares two
// downloads' fingerprints; the tracker remembers, per zip link (its path: the query of a signed link changes from
// poll to poll), the fingerprint of the first download, for at most MAX_ZIPS links (least recently fetched dropped
// first: 10,000 links of about 100 bytes each).
import type { Contract } from "../../contract.ts";
import type { JsonSchema } from "../../json-schema.ts";
import { parseYaml } from "../../yaml.ts";
import type { ExchangeContext, ExchangeRule, SequenceJudge, SequenceRule, Violation } from "../types.ts";
import { readPackage } from "../zip-package.ts";

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

export const ZIP_LAYOUT_RULE_ID = "deepcrawl-zip-layout";
/** Tasks (their request) and zip links (their task) a layout tracker remembers at most, oldest dropped first. */
export const MAX_TASKS = 10_000;

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

function frontMatter(doc: string): Record<string, unknown> | string {
  const m = FRONT_MATTER.exec(doc);
  if (!m) return "it does not start with YAML front matter (---)";
  try {
    const data = parseYaml(m[1]) as unknown;
    if (data !== null && typeof data === "object" && !Array.isArray(data)) return data as Record<string, unknown>;
    return "its front matter is not a mapping";
  } catch (err) {
    return `its front matter is not YAML: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** What a deepcrawl request without a type gets (the document's x-default). */
function defaultType(contract: Contract): unknown {
  const schema = contract.document.components?.schemas?.DeepcrawlRequest as JsonSchema | undefined;
  return schema?.properties?.type?.["x-default"];
}

/**
 * The package's layout (D-deepcrawl-zip), from the zip's bytes and, when known, the request that started the task:
 * the manifest names that request (url, type), every listed document is Markdown under pages/ starting with YAML
 * front matter (url, title, fetched_at) whose url is the manifest's, a fetched page has its document, and nothing
 * else is in the zip. A zip that cannot be read is deepcrawl-zip-valid's, not this rule's.
 */
export function zipLayoutProblems(
  contract: Contract,
  zip: Uint8Array,
  asked?: { url?: unknown; type?: unknown },
): Violation[] {
  const reading = readPackage(contract, Buffer.from(zip));
  if (!reading.ok) return [];
  const { manifest, documents, entries } = reading;
  const out: Violation[] = [];
  const add = (message: string, expected?: string, actual?: string) =>
    out.push({ rule: ZIP_LAYOUT_RULE_ID, message, expected, actual });
  if (asked) {
    if (manifest.url !== asked.url) add("manifest url is not the requested url", String(asked.url), manifest.url);
    const type = asked.type ?? defaultType(contract);
    const got = (manifest as { type?: unknown }).type;
    if (got !== type) add("manifest type is not the requested (or default) type", String(type), String(got));
  }
  const listed = new Set(manifest.pages.map((p) => p.path).filter((x): x is string => x !== null));
  for (const name of entries)
    if (name !== "manifest.json" && !name.endsWith("/") && !listed.has(name))
      add(`${name} is in the zip but not in the manifest`, "only manifest.json and the listed documents", name);
  for (const page of manifest.pages) {
    if (page.path === null) {
      if (page.status >= 200 && page.status < 300)
        add(`${page.url} was fetched (${page.status}) but has no document`, "a path under pages/", "null");
      continue;
    }
    if (!/^pages\/[^/]+\.md$/.test(page.path))
      add(`${page.path} is not a Markdown document under pages/`, "pages/<name>.md", page.path);
    const fm = frontMatter(documents.get(page.path) ?? "");
    if (typeof fm === "string") {
      add(`${page.path}: ${fm}`);
      continue;
    }
    const missing = ["url", "title", "fetched_at"].filter((k) => !(k in fm));
    if (missing.length)
      add(
        `${page.path}: front matter lacks ${missing.join(", ")}`,
        "url, title, fetched_at",
        Object.keys(fm).join(", "),
      );
    if ("url" in fm && fm.url !== page.url)
      add(`${page.path}: front matter url differs from the manifest's`, page.url, String(fm.url));
    if ("fetched_at" in fm && Number.isNaN(Date.parse(String(fm.fetched_at))))
      add(`${page.path}: fetched_at is not a date`, "an RFC 3339 date-time", String(fm.fetched_at));
  }
  return out;
}

/** Follows a task from its start to its zip: the request asked, and which task a zip link belongs to. */
export function createZipLayoutTracker(contract: Contract): SequenceJudge {
  const asked = new Map<string, { url?: unknown; type?: unknown }>();
  const taskOfZip = new Map<string, string>();
  const remember = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_TASKS) map.delete(map.keys().next().value as string);
  };
  return {
    observe(ctx) {
      const id = ctx.op?.operationId;
      const body = ctx.json?.ok ? (ctx.json.value as Record<string, unknown> | null) : null;
      if (id === "deepcrawl" && ctx.status === 202 && typeof body?.taskId === "string") {
        const sent = ctx.sent as { url?: unknown; type?: unknown } | undefined;
        if (sent && typeof sent === "object") remember(asked, body.taskId, { url: sent.url, type: sent.type });
        return [];
      }
      if (id === "deepcrawlStatus" && ctx.status === 200 && typeof body?.zipUrl === "string") {
        try {
          remember(taskOfZip, new URL(body.zipUrl).pathname, String(ctx.params.taskId));
        } catch {
          // not a URL: deepcrawl-completed-package and the schema say so
        }
        return [];
      }
      if (ctx.route !== "deepcrawl-zip" || ctx.status !== 200 || !ctx.bytes) return [];
      const task = taskOfZip.get(ctx.exchange.request.path.split("?")[0]);
      return zipLayoutProblems(contract, ctx.bytes, task ? asked.get(task) : undefined);
    },
  };
}

export const zipLayout: SequenceRule = {
  kind: "sequence",
  id: ZIP_LAYOUT_RULE_ID,
  title: "A deepcrawl's zip is laid out as decided: the request in the manifest, pages/*.md with url/title/fetched_at",
  side: "response",
  severity: "minor",
  basis: "D-deepcrawl-zip",
  passive: true,
  needs: ["response-body", "earlier-polls"],
  create: createZipLayoutTracker,
};
