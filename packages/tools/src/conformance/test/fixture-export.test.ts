// Fixtures a deployment can fetch (issue 27). The fixture site exported as static files and served by a plain static
// file server (test-support/static-site.ts, no plumbline code), read by the reference with --allow-private-network:
// every real-page check runs and passes. A manifest that the site does not match, or a target answering another
// token than the page's, cannot pass the canary. And a target that cannot reach the run's own loopback fixtures
// (the reference without --allow-private-network, a stand-in for any remote deployment) fails its precondition with
// the fixture URL, the target's answer and the fix, unless --allow-skipped names it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plumblineInProcess } from "../../../../../test-support/cli-in-process.ts";
import { type ReferenceProcess, startReferenceProcess } from "../../../../../test-support/reference-process.ts";
import { type StaticSite, startStaticSite } from "../../../../../test-support/static-site.ts";
import { type FixtureManifest, padUrl, randomToken } from "../fixtures/fixture-manifest.ts";
import { CHECKS, runConformance } from "../index.ts";
import { readRequestLog } from "../run-conformance.ts";
import { jsonOf, startFaultProxy, withJson } from "./fault-proxy.ts";

const REAL_PAGE_CHECKS = CHECKS.filter((c) => c.preconditions?.includes("fetches-real-pages")).map((c) => c.id);

/** `plumbline ARGS` through the dispatcher in process: its printed lines and exit code, no Node started for each. */
const cli = plumblineInProcess;

let dir: string;
let log: string;
let sites: StaticSite[];
let manifestPath: string;
let manifest: FixtureManifest;
let reference: ReferenceProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plb-fixture-export-"));
  log = join(dir, "access.log");
  // the host first (the export bakes its addresses into robots.txt and the sitemaps), then the export into it
  sites = await Promise.all(
    ["main", "no-sitemap", "conventional"].map((f) => startStaticSite(join(dir, "export", f), log)),
  );
  const [main, bare, conventional] = sites.map((s) => s.url);
  const exported = await cli([
    "conform",
    "fixtures",
    "export",
    join(dir, "export"),
    "--base-url",
    main,
    "--no-sitemap-url",
    bare,
    "--conventional-url",
    conventional,
  ]);
  expect(exported.code, exported.out).toBe(0);
  expect(exported.out).toContain(`publish ${join(dir, "export", "main")} at ${main}/`);
  manifestPath = join(dir, "export", "manifest.json");
  manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as FixtureManifest;
  reference = await startReferenceProcess({ keys: ["KEY:100000"], args: ["--rate-limit", "0"] });
}, 120_000);

afterAll(async () => {
  await reference?.stop();
  await Promise.all((sites ?? []).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("plumbline conform fixtures export", () => {
  it("writes each origin's folder and a manifest kept outside them, with random canary tokens", () => {
    expect(manifest.kind).toBe("export");
    expect(manifest.origins).toEqual({ main: sites[0].url, noSitemap: sites[1].url, conventional: sites[2].url });
    expect(manifest.canaries.length).toBe(64);
    expect(new Set(manifest.canaries.map((c) => c.token)).size).toBe(64);
    const page = readFileSync(join(dir, "export", "main", ...manifest.canaries[0].path.split("/")), "utf8");
    expect(page).toContain(manifest.canaries[0].token);
    expect(readFileSync(join(dir, "export", "main", "robots.txt"), "utf8")).toContain(
      `Sitemap: ${sites[0].url}/sitemaps/index.xml`,
    );
    expect(manifest.statusPages).toEqual({ "404": "/status/404", "410": null });
  });

  it("is served whole by the static host: sitemaps, the gzipped sitemap, a page at a URL's maxLength, 404s", async () => {
    const main = sites[0].url;
    expect((await fetch(`${main}/sitemaps/index.xml`)).status).toBe(200);
    const gz = await fetch(`${main}/sitemaps/pages.xml.gz`);
    expect(gz.headers.get("content-type")).toBe("application/gzip");
    const pad = padUrl(main, 4096) as string;
    expect(pad.length).toBe(4096);
    expect((await fetch(pad)).status).toBe(200);
    expect((await fetch(`${main}/status/404`)).status).toBe(404);
    expect((await fetch(`${sites[1].url}/robots.txt`)).status).toBe(404);
    expect(await (await fetch(`${sites[2].url}/sitemap.xml`)).text()).toContain("only-in-sitemap");
  });

  it("refuses an address that is not an origin's root", async () => {
    const r = await cli(["conform", "fixtures", "export", join(dir, "x"), "--base-url", "https://example.com/sub/"]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/must be the root of an origin/);
  });
});

describe("the export on a plain static host, read by the reference (--allow-private-network)", () => {
  it("runs every real-page check, and each passes", async () => {
    const r = await runConformance({
      target: reference.url,
      apiKey: "KEY",
      fixtureUrl: sites[0].url,
      fixtureManifest: manifestPath,
      fixtureLog: log,
      reportDir: null,
      only: REAL_PAGE_CHECKS,
    });
    expect(r.canary?.kind, r.canary?.reason).toBe("real");
    const notPassed = r.checks.filter((c) => c.status !== "passed");
    expect(notPassed.map((c) => [c.id, c.status, c.reason ?? c.failures.map((f) => f.message)])).toEqual([]);
    expect(r.checks.map((c) => c.id).sort()).toEqual([...REAL_PAGE_CHECKS].sort());
    expect(r.exitCode).toBe(0);
    // a static host has no 410: said, not hidden
    expect(r.checks.find((c) => c.id === "crawl-target-status")?.notes).toEqual([
      "410 not judged: the fixture site (a static export) has no page answering 410",
    ]);
  }, 240_000);

  it("cannot be passed with a forged manifest: the site does not carry its tokens, whatever the target answers", async () => {
    const forged: FixtureManifest = {
      ...manifest,
      canaries: manifest.canaries.map((c) => ({ ...c, token: randomToken() })),
    };
    // a target given the forged manifest: it puts every forged token into each crawl answer
    const proxy = await startFaultProxy(reference.url, {
      rewrite: (req, res) => {
        if (req.path !== "/crawl" || res.status !== 200) return res;
        const b = jsonOf(res) as { results: { content: string } };
        const tokens = forged.canaries.map((c) => c.token).join(" ");
        return withJson(res, { ...b, results: { ...b.results, content: `${b.results.content} ${tokens}` } });
      },
    });
    try {
      const r = await runConformance({
        target: proxy.url,
        apiKey: "KEY",
        fixtureUrl: sites[0].url,
        fixtureManifest: forged,
        reportDir: null,
        only: ["crawl-readable-text"],
      });
      expect(r.canary?.kind).toBe("fixture-manifest");
      expect(r.canary?.reason).toMatch(/does not carry the manifest's token/);
      expect(r.checks.map((c) => [c.id, c.status, c.skipKind])).toEqual([
        ["crawl-readable-text", "skipped", "fixture-manifest"],
      ]);
      expect(r.exitCode).toBe(1);
      // the target was not even asked: the manifest failed the suite's own reading of the page
      expect(r.exchanges.filter((e) => e.by === "probe:canary")).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("cannot be passed with a wrong token: an answer holding another page's token is synthetic", async () => {
    // a target answering every crawl with the token of some other canary page (or any token but the page's)
    const proxy = await startFaultProxy(reference.url, {
      rewrite: (req, res) => {
        if (req.path !== "/crawl" || res.status !== 200) return res;
        const b = jsonOf(res) as { results: { content: string } };
        const asked = JSON.parse(req.body.toString()).url as string;
        const others = manifest.canaries.filter((c) => !asked.endsWith(c.path)).map((c) => c.token);
        const content = b.results.content.replace(/plbtoken[0-9a-f]+/g, others[0]);
        return withJson(res, { ...b, results: { ...b.results, content: `${content} ${others.join(" ")}` } });
      },
    });
    try {
      const r = await runConformance({
        target: proxy.url,
        apiKey: "KEY",
        fixtureUrl: sites[0].url,
        fixtureManifest: manifestPath,
        reportDir: null,
        only: ["crawl-readable-text"],
      });
      expect(r.canary?.kind).toBe("synthetic");
      expect(r.canary?.reason).toMatch(/answered 200 without the page's unique token/);
      expect(r.checks.map((c) => [c.id, c.status, c.skipKind])).toEqual([
        ["crawl-readable-text", "skipped", "synthetic"],
      ]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("refuses --fixture-url without a manifest as a precondition, and a manifest for another address outright", async () => {
    const bare = await runConformance({
      target: reference.url,
      apiKey: "KEY",
      fixtureUrl: sites[0].url,
      reportDir: null,
      only: ["crawl-readable-text"],
    });
    expect(bare.checks[0]).toMatchObject({ status: "skipped", skipKind: "fixture-manifest" });
    expect(bare.checks[0].reason).toMatch(/without --fixture-manifest/);
    expect(bare.exitCode).toBe(1);
    const elsewhere = await runConformance({
      target: reference.url,
      apiKey: "KEY",
      fixtureUrl: "http://127.0.0.1:9",
      fixtureManifest: manifestPath,
      reportDir: null,
      only: ["crawl-readable-text"],
    });
    expect(elsewhere.exitCode).toBe(2);
    expect(elsewhere.error).toMatch(/not where the manifest's export was made for/);
  }, 60_000);
});

describe("a target that cannot reach the run's loopback fixtures (the reference without --allow-private-network)", () => {
  let remote: ReferenceProcess;
  beforeAll(async () => {
    remote = await startReferenceProcess({
      keys: ["KEY:100000"],
      args: ["--rate-limit", "0"],
      allowPrivateNetwork: false,
    });
  }, 60_000);
  afterAll(async () => {
    await remote?.stop();
  });

  it("fails its precondition naming the fixture URL, the target's answer and the fix; --allow-skipped accepts it", async () => {
    const only = "crawl-readable-text,sitemap-type-all";
    const r = await cli(["conform", "--target", remote.url, "--api-key", "KEY", "--only", only, "--no-report"]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/^FAILED: \d+ passed, 0 failed, 0 warnings, 2 skipped \(2 fixture-unreachable\)/m);
    const line = r.out.split("\n").find((l) => l.startsWith("FAILED precondition not met: fixture-unreachable")) ?? "";
    expect(line).toMatch(/the canary page http:\/\/127\.0\.0\.1:\d+\/canary\/plbcanary[0-9a-f]+ with crawl/);
    expect(line).toMatch(/it answered 400 PLB_BAD_VALUE "The target host 127\.0\.0\.1 is a loopback address/);
    expect(line).toMatch(/--allow-private-network/);
    expect(line).toMatch(/plumbline conform fixtures export DIR/);
    expect(line).toMatch(/serve-fixtures --host 0\.0\.0\.0/);
    expect(line).toMatch(/--allow-skipped fixture-unreachable$/);
    // not "synthetic": a 400 for a refused address is the opposite
    expect(r.out).not.toMatch(/synthetic/);

    const allowed = await cli([
      "conform",
      "--target",
      remote.url,
      "--api-key",
      "KEY",
      "--only",
      only,
      "--no-report",
      "--allow-skipped",
      "fixture-unreachable",
    ]);
    expect(allowed.code, allowed.out).toBe(0);
    expect(allowed.out).toMatch(/skipped 2 fixture-unreachable \(missing precondition, allowed: --allow-skipped\)/);
  }, 120_000);
});

describe("a fixture host's request log", () => {
  it("reads URLs and Common Log Format request lines", () => {
    const file = join(dir, "clf.log");
    writeFileSync(
      file,
      [
        "http://127.0.0.1:1/robots.txt",
        '10.0.0.1 - - [27/Nov/2026:10:00:00 +0000] "GET /docs/one.html?x=1 HTTP/1.1" 200 512 "-" "plumbline"',
        "",
      ].join("\n"),
    );
    expect(readRequestLog(file)).toEqual(["http://127.0.0.1:1/robots.txt", "/docs/one.html?x=1"]);
    expect(readRequestLog(join(dir, "missing.log"))).toEqual([]);
  });
});
