// The plan of a run: which checks run (--only, --skip, --include, opt-in) and what they may cost on the target
// account, so a run against the paid service can be refused before it spends anything (--max-credits).
import type { Contract } from "../spec/index.ts";
import { CHECKS } from "./registry.ts";
import type { CheckDefinition } from "./types.ts";

export interface Plan {
  checks: CheckDefinition[];
  credits: number;
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; error: string };

export function makePlan(
  contract: Contract,
  alt: Contract,
  o: { only: string[]; skip: string[]; include: string[] },
): PlanResult {
  const known = new Set(CHECKS.map((c) => c.id));
  const unknown = [...o.only, ...o.skip, ...o.include].filter((id) => !known.has(id));
  if (unknown.length) return { ok: false, error: `unknown check id(s): ${unknown.join(", ")} (see --list)` };
  const chosen = CHECKS.filter((c) => {
    if (o.skip.includes(c.id)) return false;
    if (o.only.length) return o.only.includes(c.id);
    return !c.optIn || o.include.includes(c.id);
  });
  const probes = new Map<string, number>();
  let credits = 0;
  for (const c of chosen) {
    credits += c.cost?.(contract, alt) ?? 0;
    for (const p of c.probes ?? []) if (!probes.has(p.id)) probes.set(p.id, p.cost(contract, alt));
  }
  for (const v of probes.values()) credits += v;
  // the canary crawl, once, when a check needs a target that fetches real pages
  if (chosen.some((c) => c.preconditions?.includes("fetches-real-pages")))
    credits += contract.prices.entryCredits("crawl", {});
  return { ok: true, plan: { checks: chosen, credits } };
}
