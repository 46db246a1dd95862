// The registry's own rules: unique kebab-case ids, a section for each, decisions that exist in the document.

import { loadContract } from "@plumbline-kit/contract";
import { describe, expect, it } from "vitest";
import { CHECKS } from "../registry.ts";

describe("the check registry", () => {
  it("holds unique kebab-case ids, each naming its interface section", () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CHECKS) {
      expect(c.id, c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
      expect(c.section.length, c.id).toBeGreaterThan(3);
    }
  });

  it("rests decision-based checks on decisions the document records", async () => {
    const known = new Set((await loadContract()).decisions.map((d) => d.id));
    const cited = CHECKS.flatMap((c) => (c.basis.kind === "contract" ? [] : [c.basis.decision]));
    expect(cited.filter((d) => !known.has(d))).toEqual([]);
  });

  it("plans the 429 check by default: crossing the window of the free GET /usage costs no credit (issue 35)", () => {
    expect(CHECKS.find((c) => c.id === "rate-limit-retry-after")?.optIn).toBeUndefined();
    expect(CHECKS.filter((c) => c.optIn).map((c) => c.id)).toEqual([]);
  });
});
