// `plumbline spec diff` as the documented CI job runs it (docs/spec-diff.md): in a clone whose origin holds the
// contract, `spec diff git:origin/main:spec/openapi.yaml spec/openapi.yaml --fail-on breaking --format github`
// exits 1 on a pull request that tightens a bound, removes a response field or raises a price, each annotation on
// the line of the change in REVISION, and exits 0 on a purely additive one.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SPEC_PATH } from "@plumbline-kit/contract/document";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../../../../../test-support/cli-process.ts";
import { RULES } from "./rules.ts";

const SPEC = readFileSync(SPEC_PATH, "utf8");
let root: string;
let clone: string;

function git(cwd: string, ...args: string[]) {
  execFileSync("git", args, {
    cwd,
    stdio: "pipe",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

function plumbline(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "spec", "diff", ...args], { cwd, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The pull request's working tree: the contract with `edits` applied as text, so lines are as a person wrote them. */
function revise(edits: Array<[string, string]>): string {
  let text = SPEC;
  for (const [from, to] of edits) {
    expect(text.includes(from), from).toBe(true);
    text = text.replace(from, to);
  }
  writeFileSync(join(clone, "spec", "openapi.yaml"), text);
  return text;
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "plb-spec-diff-"));
  const origin = join(root, "origin");
  mkdirSync(join(origin, "spec"), { recursive: true });
  writeFileSync(join(origin, "spec", "openapi.yaml"), SPEC);
  git(origin, "init", "-q", "-b", "main");
  git(origin, "add", ".");
  git(origin, "commit", "-q", "-m", "contract");
  clone = join(root, "clone");
  git(root, "clone", "-q", origin, clone);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the CI job: spec diff git:origin/main:spec/openapi.yaml spec/openapi.yaml --fail-on breaking", () => {
  const job = ["git:origin/main:spec/openapi.yaml", "spec/openapi.yaml", "--fail-on", "breaking", "--format", "github"];

  it("a tightened bound, a removed response field and a raised price: exit 1, each annotated on its line", () => {
    const text = revise([
      [
        "max_results: { type: integer, minimum: 1, maximum: 50, default: 5 }",
        "max_results: { type: integer, minimum: 1, maximum: 40, default: 5 }",
      ],
      [
        "required: [title, link, snippet]\n      additionalProperties: true\n      properties:\n        title: { type: string }\n        link: { type: string, format: uri }\n        snippet: { type: string }\n",
        "required: [title, link]\n      additionalProperties: true\n      properties:\n        title: { type: string }\n        link: { type: string, format: uri }\n",
      ],
      [
        '      x-pricing:\n        credits: 1\n        price: "0.003"',
        '      x-pricing:\n        credits: 2\n        price: "0.003"',
      ],
    ]);
    const { code, out } = plumbline(clone, ...job);
    expect(code, out).toBe(1);
    const annotations = out.split("\n").filter((l) => l.startsWith("::error "));
    const bound = lineOf(text, "maximum: 40");
    const price = lineOf(text, "credits: 2");
    expect(annotations).toContain(
      `::error file=spec/openapi.yaml,line=${bound},title=request-bound-tightened (breaking)::POST /search: a client sending \`max_results: 41\` is now refused (maximum 50 → 40)`,
    );
    expect(annotations).toContain(
      `::error file=spec/openapi.yaml,line=${price},title=price-raised (breaking)::POST /search: a client budgeting 1 credit a call to POST /search is now charged 2`,
    );
    // the removed field's annotation stands where it was removed from: SearchResult's `properties`
    const properties = lineOf(text, "    SearchResult:") + 4;
    expect(text.split("\n")[properties - 1]).toBe("      properties:");
    expect(annotations).toContain(
      `::error file=spec/openapi.yaml,line=${properties},title=response-required-property-removed (breaking)::POST /search, POST /news: a client reading \`results[].snippet\` no longer finds it`,
    );
    expect(annotations).toHaveLength(3);
  });

  it("a purely additive change (a new optional field, a new response field): exit 0, only notices", () => {
    revise([
      [
        "        page: { type: integer, minimum: 1, maximum: 100, default: 1 }\n",
        "        page: { type: integer, minimum: 1, maximum: 100, default: 1 }\n        safe_search: { type: boolean }\n",
      ],
      [
        "        snippet: { type: string }\n",
        "        snippet: { type: string }\n        favicon: { type: string, format: uri }\n",
      ],
    ]);
    const { code, out } = plumbline(clone, ...job);
    expect(code, out).toBe(0);
    const lines = out.split("\n").filter((l) => l.startsWith("::"));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^::notice /);
  });

  it("no change: exit 0 and says so", () => {
    revise([]);
    const { code, out } = plumbline(
      clone,
      "git:origin/main:spec/openapi.yaml",
      "spec/openapi.yaml",
      "--fail-on",
      "breaking",
    );
    expect(code).toBe(0);
    expect(out.trim()).toBe("no changes between git:origin/main:spec/openapi.yaml and spec/openapi.yaml");
  });
});

describe("plumbline spec diff, its formats and errors", () => {
  it("--help exits 0 and creates nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "plb-diff-help-"));
    const r = plumbline(dir, "--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("Usage: plumbline spec diff [options] [base] [revision]");
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  });

  it("--rules lists every rule with its level; --format markdown gives the docs table", () => {
    const text = plumbline(root, "--rules");
    expect(text.code).toBe(0);
    expect(text.out.trim().split("\n")).toHaveLength(RULES.length);
    const md = plumbline(root, "--rules", "--format", "markdown");
    expect(md.out).toContain("| `request-bound-tightened` | breaking | request |");
  });

  it("json, junit and markdown render the same changes; --fail-on warning counts potentially breaking ones", () => {
    revise([
      [
        "              sogou,\n              yandex,\n",
        "              sogou,\n              yandex,\n              naver,\n",
      ],
    ]);
    const base = "git:origin/main:spec/openapi.yaml";
    const json = plumbline(clone, base, "spec/openapi.yaml", "--format", "json");
    expect(json.code).toBe(0);
    const result = JSON.parse(json.out);
    expect(result.changes.map((c: { rule: string }) => c.rule)).toEqual([
      "response-enum-value-added",
      "request-enum-value-added",
    ]);
    const junit = plumbline(clone, base, "spec/openapi.yaml", "--format", "junit", "--fail-on", "warning");
    expect(junit.code).toBe(1);
    expect(junit.out.match(/<testcase /g)).toHaveLength(2);
    expect(junit.out.match(/<failure [^>]*type="potentially-breaking"/g)).toHaveLength(1);
    const md = plumbline(clone, base, "spec/openapi.yaml", "--format", "markdown");
    expect(md.out).toContain("| potentially breaking | `response-enum-value-added` | POST /search |");
  });

  it("a severity file overrides a level or turns a rule off; an unknown rule is refused (exit 2)", () => {
    revise([
      [
        "              sogou,\n              yandex,\n",
        "              sogou,\n              yandex,\n              naver,\n",
      ],
    ]);
    const file = join(root, "severity.yaml");
    writeFileSync(file, "response-enum-value-added: breaking\nrequest-enum-value-added: off\n");
    const r = plumbline(
      clone,
      "git:origin/main:spec/openapi.yaml",
      "spec/openapi.yaml",
      "--severity",
      file,
      "--format",
      "json",
      "--fail-on",
      "breaking",
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).changes.map((c: { rule: string; level: string }) => [c.rule, c.level])).toEqual([
      ["response-enum-value-added", "breaking"],
    ]);
    writeFileSync(file, "response-enum-added: breaking\n");
    const bad = plumbline(clone, "spec/openapi.yaml", "spec/openapi.yaml", "--severity", file);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown rule "response-enum-added" (did you mean response-enum-value-added?)');
  });

  it("a missing file, an unknown ref, a document that is not OpenAPI 3: exit 2 with one clear line", () => {
    writeFileSync(join(root, "swagger.yaml"), "swagger: '2.0'\npaths: {}\n");
    const cases: Array<[string[], RegExp]> = [
      [["nope.yaml", "spec/openapi.yaml"], /cannot read nope\.yaml: ENOENT/],
      [["git:no-such-ref:spec/openapi.yaml", "spec/openapi.yaml"], /cannot read git:no-such-ref:spec\/openapi\.yaml/],
      [
        [join(root, "swagger.yaml"), "spec/openapi.yaml"],
        /is not an OpenAPI 3\.0 or 3\.1 document \(openapi: undefined|no `openapi` field\)/,
      ],
      [["spec/openapi.yaml"], /BASE and REVISION are required/],
      [
        ["a", "b", "--format", "xml"],
        /option '--format <format>' argument 'xml' is invalid\. Allowed choices are text, json, junit, markdown, github\./,
      ],
    ];
    for (const [args, message] of cases) {
      const r = plumbline(clone, ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
    }
  });
});
