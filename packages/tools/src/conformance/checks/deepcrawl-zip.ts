// The packaged deepcrawl result (interface-spec "States and transitions": completed tells where the packaged result
// is; D-deepcrawl-zip lays it out: manifest.json plus one Markdown document with front matter per fetched page
// under pages/). Validity and layout hold for any target; that the package holds the fixture site's pages needs a
// target that really crawled it (canary probe).

import type { JsonSchema } from "@plumbline-kit/contract";
import { plural } from "@plumbline-kit/contract/report/plural";
import { parse } from "yaml";
import { describe, failure, status } from "../check-helpers.ts";
import { SITEMAP_PAGES } from "../fixtures/site-facts.ts";
import { type DeepcrawlRun, deepcrawlProbe } from "../probes/deepcrawl-run.ts";
import type { CheckDefinition, CheckOutcome, Exchange, Failure, RunContext } from "../types.ts";
import { readPackage, type ZipReading } from "../zip-package.ts";
import { NOT_STARTED, startedRun } from "./deepcrawl.ts";
import { fixture } from "./semantics-crawl.ts";

const SECTION = "States and transitions (completed); What the service does";

type Package = { run: DeepcrawlRun; ex: Exchange; reading: ZipReading };

/** The downloaded package of the run's task, or the outcome that says why there is none. */
async function downloaded(ctx: RunContext): Promise<Package | CheckOutcome> {
  const run = await startedRun(ctx);
  if (!run) return NOT_STARTED;
  if (!run.zip) return { failures: [], skip: "the task did not complete with a zipUrl (see deepcrawl-completes)" };
  return { run, ex: run.zip, reading: readPackage(ctx.contract, run.zip.raw ?? Buffer.alloc(0)) };
}

/** The package when it could be read (manifest and listed documents); the outcome otherwise. */
async function readable(ctx: RunContext): Promise<(Package & { reading: { ok: true } }) | CheckOutcome> {
  const p = await downloaded(ctx);
  if (!("run" in p)) return p;
  if (status(p.ex) !== 200 || !p.reading.ok)
    return { failures: [], skip: "the package could not be read (see deepcrawl-zip-valid)" };
  return p as Package & { reading: { ok: true } };
}

const zipValid: CheckDefinition = {
  id: "deepcrawl-zip-valid",
  title: "zipUrl serves a zip holding manifest.json (DeepcrawlManifest) and every page document it lists",
  severity: "major",
  section: SECTION,
  basis: { kind: "decision", decision: "D-deepcrawl-zip" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const p = await downloaded(ctx);
    if (!("run" in p)) return p;
    const { run, ex, reading } = p;
    const ct = ex.response?.contentType.split(";")[0].trim();
    if (status(ex) !== 200 || ct !== "application/zip")
      return {
        failures: [failure("zipUrl did not serve a zip", [ex], "200 application/zip", `${describe(ex)} ${ct}`)],
      };
    if (!reading.ok) return { failures: reading.problems.map((m) => failure(m, [ex])) };
    const failures: Failure[] = [];
    if (reading.manifest.taskId !== run.taskId)
      failures.push(failure("manifest taskId differs from the task's", [ex], run.taskId, reading.manifest.taskId));
    return { failures, notes: [`${plural(reading.manifest.pages.length, "page")} in the manifest`] };
  },
};

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** The front matter of a document, or a string saying what is wrong with it. */
function frontMatter(doc: string): Record<string, unknown> | string {
  const m = FRONT_MATTER.exec(doc);
  if (!m) return "it does not start with YAML front matter (---)";
  try {
    const data = parse(m[1]) as unknown;
    if (data !== null && typeof data === "object" && !Array.isArray(data)) return data as Record<string, unknown>;
    return "its front matter is not a mapping";
  } catch (err) {
    return `its front matter is not YAML: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** The deepcrawl type a request without one gets (the document's x-default). */
function defaultType(ctx: RunContext): unknown {
  const schema = ctx.contract.document.components?.schemas?.DeepcrawlRequest as JsonSchema;
  return schema.properties?.type?.["x-default"];
}

const zipLayout: CheckDefinition = {
  id: "deepcrawl-zip-layout",
  title: "The package is laid out as decided: the request in the manifest, pages/*.md with url/title/fetched_at",
  severity: "minor",
  section: SECTION,
  basis: { kind: "decision", decision: "D-deepcrawl-zip" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const p = await readable(ctx);
    if (!("run" in p)) return p;
    const { run, ex } = p;
    const { manifest, documents, entries } = p.reading;
    const failures: Failure[] = [];
    const add = (message: string, expected?: string, actual?: string) =>
      failures.push(failure(message, [ex], expected, actual));
    const asked = run.body as { url?: unknown; type?: unknown };
    if (manifest.url !== asked.url) add("manifest url is not the requested url", String(asked.url), manifest.url);
    const type = asked.type ?? defaultType(ctx);
    const got = (manifest as { type?: unknown }).type;
    if (got !== type) add("manifest type is not the requested (or default) type", String(type), String(got));
    const { createdAt, completedAt } = manifest as { createdAt?: string; completedAt?: string };
    if (Date.parse(String(createdAt)) > Date.parse(String(completedAt)))
      add("manifest completedAt precedes createdAt", `≥ ${createdAt}`, completedAt);
    const listed = new Set(manifest.pages.map((pg) => pg.path).filter((x): x is string => x !== null));
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
    return { failures, notes: [`${listed.size} documents, ${entries.length} zip entries`] };
  },
};

const fixturePages: CheckDefinition = {
  id: "deepcrawl-zip-fixture-pages",
  title: "A deepcrawl of the fixture site packages every page its sitemap declares, each document with the page's text",
  severity: "major",
  section: `${SECTION}; POST /deepcrawl`,
  basis: { kind: "decision", decision: "D-deepcrawl-zip" },
  operations: ["deepcrawl"],
  preconditions: ["fetches-real-pages"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const p = await readable(ctx);
    if (!("run" in p)) return p;
    const { manifest, documents } = p.reading;
    const failures: Failure[] = [];
    for (const want of SITEMAP_PAGES) {
      const url = fixture(ctx, want.path);
      const page = manifest.pages.find((pg) => pg.url === url);
      if (!page)
        failures.push(
          failure(`${want.path} is not in the manifest`, [p.ex], url, manifest.pages.map((pg) => pg.url).join(", ")),
        );
      else if (page.path === null || page.status !== 200)
        failures.push(
          failure(
            `${want.path} was not packaged`,
            [p.ex],
            "status 200 with a document",
            `status ${page.status}, path ${page.path}`,
          ),
        );
      else if (!documents.get(page.path)?.includes(want.phrase))
        failures.push(failure(`${page.path} lacks the text of ${want.path}`, [p.ex], want.phrase));
    }
    return { failures, notes: [`${plural(manifest.pages.length, "page")} in the manifest`] };
  },
};

export const DEEPCRAWL_ZIP_CHECKS = [zipValid, zipLayout, fixturePages];
