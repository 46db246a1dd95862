// The packaged deepcrawl result (interface-spec "States and transitions": completed tells where the packaged result
// is; D-deepcrawl-zip lays it out: manifest.json plus one Markdown document with front matter per fetched page
// under pages/). Validity and layout hold for any target; that the package holds the fixture site's pages needs a
// target that really crawled it (canary probe).

import { zipLayoutProblems } from "@plumbline-kit/contract/checks/sequences/deepcrawl-zip";
import { plural } from "@plumbline-kit/contract/report/plural";
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
    const { manifest, entries } = p.reading;
    const failures: Failure[] = [];
    const add = (message: string, expected?: string, actual?: string) =>
      failures.push(failure(message, [ex], expected, actual));
    // the layout rules are the registry's (the proxy applies the same to a zip it watches go by); the check adds
    // what only a planned run knows: the order of its own timestamps
    for (const v of zipLayoutProblems(
      ctx.contract,
      ex.raw ?? Buffer.alloc(0),
      run.body as { url?: unknown; type?: unknown },
    ))
      add(
        v.message,
        v.expected === undefined ? undefined : String(v.expected),
        v.actual === undefined ? undefined : String(v.actual),
      );
    const { createdAt, completedAt } = manifest as { createdAt?: string; completedAt?: string };
    if (Date.parse(String(createdAt)) > Date.parse(String(completedAt)))
      add("manifest completedAt precedes createdAt", `≥ ${createdAt}`, completedAt);
    const listed = new Set(manifest.pages.map((pg) => pg.path).filter((x): x is string => x !== null));
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
