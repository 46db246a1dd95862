// "Says nothing about X" against "removed X", with the pair of documents docs/spec-diff.md runs: a plumbline-style
// BASE (x-pricing, headers, error codes, discovery operations, rate limits, decisions) and a REVISION written as a
// third party writes the same service (x-payment-info prices, none of the rest), with three real differences.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BIN } from "../../../../../test-support/cli-process.ts";
import { diffSpecs } from "./diff-specs.ts";
import { at, type Doc, source } from "./test/fixture-document.ts";

const HERE = new URL(".", import.meta.url).pathname;
const BASE_FILE = join(HERE, "test", "undescribed-base.yaml");
const REVISION_FILE = join(HERE, "test", "undescribed-revision.yaml");
const read = (file: string) => parse(readFileSync(file, "utf8")) as Doc;
const base = () => source(read(BASE_FILE), "base.yaml");
const revision = (edit: (d: Doc) => void = () => {}) => {
  const d = read(REVISION_FILE);
  edit(d);
  return source(d, "revision.yaml");
};
const verdict = (changes: Array<{ rule: string; level: string; operations: string[] }>) =>
  changes.map((c) => [c.rule, c.level, c.operations.join(", ")]);
const groups = (r: Awaited<ReturnType<typeof diffSpecs>>) =>
  r.undescribed.map((g) => [g.kind, g.changes.map((c) => c.rule).join(", ")]);

const REAL = [
  ["request-enum-value-removed", "breaking", "POST /search"],
  ["price-raised", "breaking", "POST /crawl"],
  ["response-property-added", "non-breaking", "POST /search"],
];

describe("spec diff: what the revision does not describe", () => {
  it("lists the real differences and sets the rest apart, counted in no level", async () => {
    const r = await diffSpecs(base(), revision());
    expect(verdict(r.changes)).toEqual(REAL);
    expect(r.counts).toEqual({ breaking: 2, "potentially-breaking": 0, "non-breaking": 1 });
    expect(groups(r)).toEqual([
      [
        "response-headers",
        "response-required-header-removed, response-required-header-removed, response-optional-header-removed",
      ],
      ["error-codes", "error-code-removed, error-code-removed"],
      ["marked-operations", "path-removed, path-removed"],
      ["rate-limits", "rate-limit-loosened"],
      ["price-details", ""],
      ["decisions", ""],
    ]);
    const codes = r.undescribed.find((g) => g.kind === "error-codes");
    expect(codes?.summary).toContain("PLB_MALFORMED_JSON, PLB_RATE_LIMITED");
    const discovery = r.undescribed.find((g) => g.kind === "marked-operations");
    expect(discovery?.subject).toBe("operations marked x-discovery");
    expect(discovery?.summary).toContain("GET /openapi.json, GET /.well-known/api-catalog");
  });

  it("reads x-payment-info as a price: the same amount is no change, another is a price change, never 'now free'", async () => {
    const same = await diffSpecs(
      base(),
      revision((d) => (at(d, "/paths/~1crawl/post/x-payment-info").price = "0.003")),
    );
    expect(same.changes.filter((c) => c.rule.startsWith("price") || c.rule.startsWith("operation-now"))).toEqual([]);
    const lower = await diffSpecs(
      base(),
      revision((d) => (at(d, "/paths/~1search/post/x-payment-info").price = "0.002")),
    );
    const search = lower.changes.filter((c) => c.operations.includes("POST /search") && c.rule.startsWith("price"));
    expect(search.map((c) => [c.rule, c.message])).toEqual([
      ["price-lowered", "POST /search now costs 0.002 per call, not 0.003"],
    ]);
    const x402 = await diffSpecs(
      base(),
      revision((d) => (at(d, "/paths/~1crawl/post/x-payment-info").protocols = ["x402"])),
    );
    expect(x402.changes.find((c) => c.rule === "payment-protocol-changed")?.message).toBe(
      "a client paying POST /crawl with mpp must now pay with x402",
    );
    // read the other way (x-payment-info in BASE), a price is a price too
    const back = await diffSpecs(revision(), base());
    expect(back.changes.filter((c) => c.rule.startsWith("operation-now"))).toEqual([]);
    expect(back.changes.find((c) => c.rule === "price-lowered")?.message).toBe(
      "POST /crawl now costs 0.003 per call, not 0.004",
    );
  });

  it("a revision that prices nothing says nothing about prices: apart, not 'now free'", async () => {
    const r = await diffSpecs(
      base(),
      revision((d) => {
        delete at(d, "/paths/~1search/post")["x-payment-info"];
        delete at(d, "/paths/~1crawl/post")["x-payment-info"];
      }),
    );
    expect(r.changes.filter((c) => c.rule === "operation-now-free")).toEqual([]);
    const prices = r.undescribed.find((g) => g.kind === "prices");
    expect(prices?.changes.map((c) => [c.rule, c.operations.join()])).toEqual([
      ["operation-now-free", "POST /search"],
      ["operation-now-free", "POST /crawl"],
    ]);
  });

  it("a kind the revision describes somewhere keeps its removals real", async () => {
    const r = await diffSpecs(
      base(),
      revision((d) => {
        // one header on crawl, one error code, one discovery operation: each kind is described
        at(d, "/paths/~1crawl/post/responses/200").headers = { "x-request-id": { schema: { type: "string" } } };
        at(d, "/paths/~1search/post/responses")["429"] = {
          description: "throttled",
          content: {
            "application/json": {
              schema: at(d, "/components/responses/Error/content/application~1json").schema,
              examples: { limited: { value: { ok: false, code: "PLB_RATE_LIMITED" } } },
            },
          },
        };
        at(d, "/paths/~1openapi.json").get = {
          operationId: "getOpenApiDocument",
          security: [],
          "x-discovery": true,
          responses: {
            "200": { description: "this document", content: { "application/json": { schema: { type: "object" } } } },
          },
        };
      }),
    );
    expect(verdict(r.changes)).toEqual([
      ["path-removed", "breaking", "GET /.well-known/api-catalog"],
      ["request-enum-value-removed", "breaking", "POST /search"],
      ["response-required-header-removed", "breaking", "POST /search"],
      ["response-required-header-removed", "breaking", "POST /search"],
      ["price-raised", "breaking", "POST /crawl"],
      ["error-code-removed", "breaking", "POST /search, POST /crawl"],
      ["response-optional-header-removed", "potentially-breaking", "POST /search"],
      ["response-property-added", "non-breaking", "POST /search"],
      ["response-header-added", "non-breaking", "POST /crawl"],
    ]);
    expect(groups(r).map(([kind]) => kind)).toEqual(["rate-limits", "price-details", "decisions"]);
  });

  it("--undescribed removed counts them as removals again", async () => {
    const r = await diffSpecs(base(), revision(), { undescribed: "removed" });
    expect(r.counts).toEqual({ breaking: 8, "potentially-breaking": 1, "non-breaking": 2 });
    expect(groups(r)).toEqual([
      ["price-details", ""],
      ["decisions", ""],
    ]);
  });
});

describe("plumbline spec diff --undescribed", () => {
  const dir = mkdtempSync(join(tmpdir(), "plb-undescribed-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, "spec", "diff", ...args], { encoding: "utf8" });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it("text: the real changes, the group apart, the summary; --fail-on breaking exits 1 on the real ones", () => {
    const r = run(BASE_FILE, REVISION_FILE, "--fail-on", "breaking");
    expect(r.err).toBe("");
    expect(r.code).toBe(1);
    const lines = r.out.trimEnd().split("\n");
    expect(lines.filter((l) => /^\S/.test(l))).toEqual([
      "breaking              request-enum-value-removed  POST /search",
      "breaking              price-raised  POST /crawl",
      "non-breaking          response-property-added  POST /search",
      "not described by the revision (8 set apart, counted in no level; --undescribed removed counts them):",
      `3 changes from ${BASE_FILE} to ${REVISION_FILE}: 2 breaking, 0 potentially breaking, 1 non-breaking; 8 not described by the revision, set apart`,
    ]);
    expect(lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.split(":")[0])).toEqual([
      "  response headers",
      "  error codes",
      "  operations marked x-discovery",
      "  rate limits",
      "  credits and surcharges",
      "  decisions",
    ]);
  });

  it("only undescribed differences: exit 0 under --fail-on breaking, 1 with --undescribed removed", () => {
    const only = read(REVISION_FILE);
    at(only, "/paths/~1search/post/requestBody/content/application~1json/schema/properties/search_service").enum = [
      "google",
      "bing",
      "sogou",
    ];
    at(only, "/paths/~1crawl/post/x-payment-info").price = "0.003";
    const file = join(dir, "only-undescribed.json");
    writeFileSync(file, JSON.stringify(only));
    const apart = run(BASE_FILE, file, "--fail-on", "breaking");
    expect(apart.code).toBe(0);
    expect(apart.out).toContain(
      "1 change from " +
        `${BASE_FILE} to ${file}: 0 breaking, 0 potentially breaking, 1 non-breaking; 8 not described by the revision, set apart`,
    );
    const removed = run(BASE_FILE, file, "--fail-on", "breaking", "--undescribed", "removed");
    expect(removed.code).toBe(1);
    expect(removed.out).toContain("6 breaking, 1 potentially breaking, 2 non-breaking");
    expect(removed.out).not.toContain("set apart");
    const bad = run(BASE_FILE, file, "--undescribed", "ignored");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--undescribed");
  });

  it("json, markdown, github and junit carry the group too", () => {
    const json = JSON.parse(run(BASE_FILE, REVISION_FILE, "--format", "json").out);
    expect(json.changes).toHaveLength(3);
    expect(json.undescribed.map((g: { kind: string; changes: unknown[] }) => [g.kind, g.changes.length])).toEqual([
      ["response-headers", 3],
      ["error-codes", 2],
      ["marked-operations", 2],
      ["rate-limits", 1],
      ["price-details", 0],
      ["decisions", 0],
    ]);
    const md = run(BASE_FILE, REVISION_FILE, "--format", "markdown").out;
    expect(md).toContain(
      "**not described by the revision (8 set apart, counted in no level; --undescribed removed counts them)**",
    );
    expect(md).toContain("- error codes: the revision documents no error code");
    const gh = run(BASE_FILE, REVISION_FILE, "--format", "github").out;
    expect(gh).toContain("::notice file=");
    expect(gh).toContain("title=not described by the revision%3A response headers::");
    expect(gh.match(/^::error /gm)).toHaveLength(2);
    const junit = run(BASE_FILE, REVISION_FILE, "--format", "junit", "--fail-on", "breaking").out;
    expect(junit).toContain('classname="spec-diff.not-described"');
    expect(junit.match(/<failure /g)).toHaveLength(2);
  });
});
