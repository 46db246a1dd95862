// D-deepcrawl-zip: the package is a real zip (fflate and the system `unzip` agree), its manifest conforms to
// DeepcrawlManifest and describes exactly the documents it holds.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contract, type JsonSchema, loadContract, type Schemas } from "@plumbline-kit/contract";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type DeepcrawlPackageInput,
  manifestChunks,
  packageDeepcrawl,
  pageSlug,
  readDeepcrawlPackage,
} from "./deepcrawl-package.ts";
import type { CrawledPage } from "./engines.ts";
import { readFrontMatter } from "./markdown-front-matter.ts";

const FETCHED = "2026-11-25T21:50:00.000Z";
const page = (url: string, title: string | null, markdown: string | null, status = 200): CrawledPage => ({
  url,
  title,
  status,
  markdown,
  fetchedAt: FETCHED,
});

const PAGES: CrawledPage[] = [
  page("https://example.com/", "Home", "# Home\n\nWelcome."),
  page("https://example.com/a/b", 'Quotes "and" colons: here', "A/B"),
  page("https://example.com/a-b", "Line one\nline two\n---\nkey: value", "A-B, slugs like /a/b"),
  page("https://example.com/a/b?page=2", "#hash & 'single' — ünïcödé", "Page 2 of /a/b"),
  page("https://example.com/gone", null, null, 404),
  page("https://example.com/down", null, null, 0),
  page("https://example.com/caf%C3%A9/%E2%9C%93.html", "Café ✓", "Ça va ✓"),
  page("https://example.com/empty", "", ""),
];

const INPUT: DeepcrawlPackageInput = {
  taskId: "dc_5f0c9e2a7b1d4c3e8a6f0b2d9c4e1a7f",
  url: "https://example.com/",
  type: "sitemap",
  createdAt: "2026-11-25T21:40:00.000Z",
  completedAt: "2026-11-25T21:55:00.000Z",
  pages: PAGES,
};

let validateManifest: (value: unknown) => unknown;
beforeAll(async () => {
  const contract: Contract = await loadContract();
  const schemas = contract.document.components?.schemas as Record<string, JsonSchema>;
  validateManifest = contract.validators.compile(schemas.DeepcrawlManifest);
});

function hasUnzip(): boolean {
  try {
    execFileSync("unzip", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function systemUnzipTest(zip: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "plumbline-deepcrawl-"));
  try {
    const file = join(dir, "package.zip");
    writeFileSync(file, zip);
    return execFileSync("unzip", ["-t", file], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("packageDeepcrawl (D-deepcrawl-zip)", () => {
  let zip: Buffer;
  let manifest: unknown;
  let documents: Map<string, string>;
  let m: Schemas["DeepcrawlManifest"];
  beforeAll(async () => {
    zip = await packageDeepcrawl(INPUT);
    ({ manifest, documents } = readDeepcrawlPackage(zip));
    m = manifest as Schemas["DeepcrawlManifest"];
  });

  it("writes a zip the library reads back", () => {
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(documents.size).toBe(PAGES.filter((p) => p.markdown !== null).length);
  });

  it.skipIf(!hasUnzip())("passes the system `unzip -t` integrity test", () => {
    const out = systemUnzipTest(zip);
    expect(out).toMatch(/No errors detected/);
    expect(out).toContain("manifest.json");
  });
  if (!hasUnzip()) console.warn("`unzip` is not on PATH: the system integrity check of the zip is skipped");

  it("has a manifest that validates against DeepcrawlManifest", () => {
    expect(validateManifest(manifest)).toBeNull();
    expect(m).toMatchObject({ taskId: INPUT.taskId, url: INPUT.url, type: "sitemap" });
    expect(m.createdAt).toBe(INPUT.createdAt);
    expect(m.completedAt).toBe(INPUT.completedAt);
    expect(m.pages.map((p) => p.url)).toEqual(PAGES.map((p) => p.url));
  });

  it("lists every document at its path with exactly `bytes` bytes, under pages/", () => {
    for (const entry of m.pages.filter((p) => p.path !== null)) {
      const path = entry.path as string;
      expect(path).toMatch(/^pages\/[a-z0-9-]+\.md$/);
      const doc = documents.get(path);
      expect(doc, path).toBeDefined();
      expect(Buffer.byteLength(doc as string, "utf8")).toBe(entry.bytes);
    }
    const listed = new Set(m.pages.map((p) => p.path));
    for (const name of documents.keys()) expect(listed.has(name), name).toBe(true);
  });

  it("starts every document with front matter that parses back to its url, title and fetched_at", () => {
    for (const entry of m.pages.filter((p) => p.path !== null)) {
      const source = PAGES.find((p) => p.url === entry.url) as CrawledPage;
      const { data, body } = readFrontMatter(documents.get(entry.path as string) as string);
      expect(data).toEqual({ url: source.url, title: source.title, fetched_at: FETCHED });
      expect(entry.title).toBe(source.title);
      expect(body.trimEnd()).toBe((source.markdown as string).trimEnd());
    }
  });

  it("gives failed pages path null, 0 bytes and no document", () => {
    const failed = m.pages.filter((p) => p.path === null);
    expect(failed.map((p) => [p.url, p.status, p.bytes])).toEqual([
      ["https://example.com/gone", 404, 0],
      ["https://example.com/down", 0, 0],
    ]);
    for (const name of documents.keys()) expect(name).not.toMatch(/gone|down/);
  });

  it("names pages by unique, stable, filesystem-safe slugs", () => {
    const paths = m.pages.flatMap((p) => (p.path ? [p.path] : []));
    expect(new Set(paths).size).toBe(paths.length);
    expect(pageSlug("https://example.com/a/b")).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(pageSlug("https://example.com/a-b")).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(pageSlug("https://example.com/a/b")).not.toBe(pageSlug("https://example.com/a-b"));
    expect(pageSlug("https://example.com/")).toMatch(/^index-/);
    expect(pageSlug("https://example.com/caf%C3%A9/%E2%9C%93.html")).toMatch(/^cafe-[0-9a-f]{8}$/);
    expect(pageSlug("https://example.com/x")).toBe(pageSlug("https://example.com/x"));
    expect(pageSlug(`https://example.com/${"long-segment/".repeat(40)}`).length).toBeLessThanOrEqual(89);
  });

  it("keeps a URL listed twice in two documents", async () => {
    const twice = await packageDeepcrawl({ ...INPUT, pages: [PAGES[0], PAGES[0]] });
    const read = readDeepcrawlPackage(twice);
    expect(read.documents.size).toBe(2);
    expect(validateManifest(read.manifest)).toBeNull();
  });

  it("is reproducible for the same input", async () => {
    expect((await packageDeepcrawl(INPUT)).equals(zip)).toBe(true);
  });

  it("produces a valid zip for an empty page list", async () => {
    const empty = await packageDeepcrawl({ ...INPUT, type: "all", pages: [] });
    const read = readDeepcrawlPackage(empty);
    expect(validateManifest(read.manifest)).toBeNull();
    expect((read.manifest as Schemas["DeepcrawlManifest"]).pages).toEqual([]);
    expect(read.documents.size).toBe(0);
    if (hasUnzip()) expect(systemUnzipTest(empty)).toMatch(/No errors detected/);
  });

  it("stamps entries safely whatever completedAt says", async () => {
    for (const completedAt of ["2150-01-01T00:00:00.000Z", "1970-01-01T00:00:00.000Z", "not a date"]) {
      expect(readDeepcrawlPackage(await packageDeepcrawl({ ...INPUT, completedAt })).documents.size).toBe(6);
    }
  });

  it("writes manifest.json first, exactly as JSON.stringify would, limitReached included", async () => {
    const entries = Object.keys(unzipSync(new Uint8Array(zip)));
    expect(entries[0]).toBe("manifest.json");
    expect(m.limitReached).toBeNull();
    const head = {
      taskId: "t",
      url: "https://example.com/",
      type: "all" as const,
      createdAt: FETCHED,
      completedAt: FETCHED,
    };
    for (const pages of [[], m.pages, m.pages.slice(0, 1)]) {
      let text = "";
      for await (const c of manifestChunks({ ...head, limitReached: "pages" }, pages)) text += c;
      expect(text).toBe(`${JSON.stringify({ ...head, limitReached: "pages", pages }, null, 2)}\n`);
    }
  });
});
