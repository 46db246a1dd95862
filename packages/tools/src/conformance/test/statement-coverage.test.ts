// The statement-coverage table cannot drift: every quote is the interface's own words, every check it names is in
// the registry, every check of the registry serves a statement (or is listed as resting on what the interface never
// mentions), and conformance/README.md holds the table as rendered.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_README } from "../coverage-command.ts";
import { CHECKS } from "../registry.ts";
import { BEYOND_THE_TEXT, STATEMENTS, withCoverageTable } from "../statement-coverage.ts";

const INTERFACE = fileURLToPath(new URL("../../../../contract/src/contract/interface-spec.md", import.meta.url));
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

describe("the statement-coverage table", () => {
  it("quotes the interface verbatim, under the heading it names", () => {
    const text = readFileSync(INTERFACE, "utf8");
    const flat = squash(text);
    const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]);
    expect(STATEMENTS.filter((s) => !flat.includes(squash(s.quote))).map((s) => s.quote)).toEqual([]);
    expect(STATEMENTS.filter((s) => !headings.some((h) => h.startsWith(s.section))).map((s) => s.section)).toEqual([]);
  });

  it("names registry checks only, and every check serves a statement or is listed beyond the text", () => {
    const ids = new Set(CHECKS.map((c) => c.id));
    const named = [...STATEMENTS.flatMap((s) => s.checks), ...BEYOND_THE_TEXT.map((b) => b.check)];
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
    expect(CHECKS.map((c) => c.id).filter((id) => !named.includes(id))).toEqual([]);
  });

  it("gives a check to what it calls covered and a reason to everything else", () => {
    for (const s of STATEMENTS) {
      if (s.coverage === "covered" || s.coverage === "partly") expect(s.checks.length, s.quote).toBeGreaterThan(0);
      if (s.coverage !== "covered") expect(s.note ?? "", s.quote).not.toBe("");
    }
  });

  it("is in conformance/README.md as rendered (plumbline conform coverage --write)", () => {
    const readme = readFileSync(CONFORMANCE_README, "utf8");
    expect(withCoverageTable(readme)).toBe(readme);
  });
});
