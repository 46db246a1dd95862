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

  it("rests decision-based checks on decisions the document of their version records", async () => {
    const seed = await loadContract();
    const live = await loadContract({ version: "live" });
    // a check of the live version's operations (requires) rests on the live document's decisions
    const missing = CHECKS.flatMap((c) => {
      const basis = c.basis;
      if (basis.kind === "contract") return [];
      const contract = (c.requires ?? []).every((id) => seed.findOperation(id)) ? seed : live;
      return contract.decisions.some((d) => d.id === basis.decision) ? [] : [`${c.id}: ${basis.decision}`];
    });
    expect(missing).toEqual([]);
  });

  it("plans the 429 check by default: crossing the window of the free GET /usage costs no credit (issue 35)", () => {
    expect(CHECKS.find((c) => c.id === "rate-limit-retry-after")?.optIn).toBeUndefined();
    expect(CHECKS.filter((c) => c.optIn).map((c) => c.id)).toEqual([]);
  });
});
