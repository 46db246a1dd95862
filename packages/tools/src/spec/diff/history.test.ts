// The worked example: spec diff over the project's own history, each pair of consecutive versions of
// spec/openapi.yaml on main read with git:REF:path, with the verdict checked by hand (test/project-history.ts).
// docs/spec-diff.md carries the rules table and this example; both are checked against their sources here.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { diffSpecs } from "./diff-specs.ts";
import { renderRules } from "./report-formats.ts";
import { RULE_BY_ID } from "./rules.ts";
import { PROJECT_HISTORY, renderHistoryTable } from "./test/project-history.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOCS = readFileSync(new URL("../../../../../docs/spec-diff.md", import.meta.url), "utf8");

function hasCommit(sha: string): boolean {
  try {
    execFileSync("git", ["cat-file", "-e", `${sha}^{commit}`], { cwd: ROOT, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("spec diff over the project's history (main's versions of spec/openapi.yaml)", () => {
  it("the example's versions follow each other, as git log lists them", () => {
    for (const [i, step] of PROJECT_HISTORY.entries()) if (i > 0) expect(step.from).toBe(PROJECT_HISTORY[i - 1].to);
    // a clone without the history (a shallow CI checkout) cannot run this example: say so rather than skip
    const missing = PROJECT_HISTORY.flatMap((s) => [s.from, s.to]).filter((sha) => !hasCommit(sha));
    expect(missing, "the repository's history is needed (git fetch --unshallow)").toEqual([]);
  });

  for (const step of PROJECT_HISTORY) {
    it(`${step.from} → ${step.to}: ${step.verdict.length || "no"} change(s)`, async () => {
      const result = await diffSpecs(`git:${step.from}:spec/openapi.yaml`, `git:${step.to}:spec/openapi.yaml`, {
        cwd: ROOT,
      });
      expect(result.changes.map((c) => [c.rule, c.operations.join(", ")])).toEqual(step.verdict);
    });
  }
});

describe("docs/spec-diff.md", () => {
  it("lists every rule with its level, as the rule definitions say", () => {
    expect(DOCS).toContain(renderRules("markdown"));
  });
  it("carries the worked example as test/project-history.ts states it", () => {
    const levelOf = (rule: string) => RULE_BY_ID.get(rule)?.level ?? "?";
    expect(DOCS).toContain(renderHistoryTable(levelOf));
  });
});
