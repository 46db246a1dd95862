// The plan of a run: which checks run (--only, --skip, --include, opt-in, --operations) and what they may cost on
// the target account, so a run against the paid service can be refused before it spends anything (--max-credits).
import type { Contract } from "@plumbline-kit/contract";
import { plural } from "@plumbline-kit/contract/report/plural";
import { makeScope, NOT_SELECTED, type OperationScope } from "./operation-scope.ts";
import { type BoundPlanRow, boundCasesPlan, refusalCandidates } from "./probes/bound-cases.ts";
import { canaryCost } from "./probes/canary.ts";
import { CHECKS } from "./registry.ts";
import type { CheckDefinition } from "./types.ts";

export interface Plan {
  /** the checks to run, in registry order */
  checks: CheckDefinition[];
  /** planned checks reported skipped without running, with the reason (operation not selected) */
  unselected: Array<{ check: CheckDefinition; reason: string }>;
  credits: number;
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; error: string };

/** The operations a check concerns, or null for a platform check. */
export function checkOperations(check: CheckDefinition, contract: Contract, alt: Contract): string[] | null {
  if (!check.operations) return null;
  return typeof check.operations === "function" ? check.operations(contract, alt) : check.operations;
}

/** Whether the contract has every operation the check requires (a check of the live version's /ask is not the seed's). */
export function inContract(check: CheckDefinition, contract: Contract): boolean {
  return (check.requires ?? []).every((id) => contract.findOperation(id) !== undefined);
}

/** Whether the target is pointed at the fixture site (and the canary run) by this check or its probes. */
export function usesFixtures(check: CheckDefinition): boolean {
  return (
    check.usesFixtureSite === true ||
    (check.preconditions ?? []).includes("fetches-real-pages") ||
    (check.probes ?? []).some((p) => p.usesFixtureSite)
  );
}

export function makePlan(
  contract: Contract,
  alt: Contract,
  o: { only: string[]; skip: string[]; include: string[] },
  scope: OperationScope,
  /** the operations calibrated for the payment-refusal verdict: their costly edges cost nothing */
  refusal: ReadonlySet<string> = new Set(),
): PlanResult {
  const known = new Set(CHECKS.map((c) => c.id));
  const unknown = [...o.only, ...o.skip, ...o.include].filter((id) => !known.has(id));
  if (unknown.length) return { ok: false, error: `unknown check id(s): ${unknown.join(", ")} (see --list)` };
  // a check named on purpose that this version cannot plan says so, rather than running nothing
  const absent = CHECKS.filter((c) => [...o.only, ...o.include].includes(c.id) && !inContract(c, contract));
  if (absent.length) {
    const missing = [...new Set(absent.flatMap((c) => c.requires ?? []))].filter((id) => !contract.findOperation(id));
    return {
      ok: false,
      error: `check(s) ${absent.map((c) => c.id).join(", ")} judge operations this contract does not have (${missing.join(", ")}): the live version has them (--contract live)`,
    };
  }
  const chosen = CHECKS.filter((c) => {
    if (o.skip.includes(c.id) || !inContract(c, contract)) return false;
    if (o.only.length) return o.only.includes(c.id);
    return !c.optIn || o.include.includes(c.id);
  });
  const checks: CheckDefinition[] = [];
  const unselected: Plan["unselected"] = [];
  for (const c of chosen) {
    const ops = checkOperations(c, contract, alt);
    if (ops && scope.filter(ops).length === 0) unselected.push({ check: c, reason: NOT_SELECTED });
    else checks.push(c);
  }
  const probes = new Map<string, number>();
  let credits = 0;
  for (const c of checks) {
    credits += c.cost?.(contract, alt, scope) ?? 0;
    for (const p of (c.probes ?? []).flatMap((x) => [x, ...(x.uses ?? [])]))
      if (!probes.has(p.id)) probes.set(p.id, p.cost(contract, alt, scope, refusal));
  }
  for (const v of probes.values()) credits += v;
  // the canary, once, when a check needs a target that fetches real pages or points it at the fixture site
  if (checks.some(usesFixtures)) credits += canaryCost(contract, scope);
  return { ok: true, plan: { checks, unselected, credits } };
}

/**
 * The printed plan: per operation, the credits the planned checks may spend on it (each operation's share, the plan
 * costed as if --operations named it alone) and the requests and cases of its boundary probe (packed, issue 17),
 * with what its costly edges would cost paid where a payment refusal judges them.
 */
export function planLines(
  contract: Contract,
  alt: Contract,
  o: { only: string[]; skip: string[]; include: string[] },
  scope: OperationScope,
  plan: Plan,
  refusal: ReadonlySet<string> = new Set(),
): string[] {
  const bounds = probesBounds(plan) ? boundCasesPlan(contract, alt, scope, refusal) : new Map<string, BoundPlanRow>();
  const lines: string[] = [];
  for (const op of contract.contractOperations.filter((x) => x.pricing && scope.has(x.operationId))) {
    const alone = makeScope(contract, [op.operationId]);
    const planned = alone.ok ? makePlan(contract, alt, o, alone.scope, refusal) : null;
    const credits = planned?.ok ? `at most ${plural(planned.plan.credits, "credit")}` : "";
    const b = bounds.get(op.operationId);
    const unpaid = b?.unpaid
      ? ` (${b.unpaid} judged by a payment refusal, nothing spent; ${plural(b.paidCredits, "credit")} if paid)`
      : "";
    const cases = b
      ? `; bound cases: ${b.cases} in ${plural(b.requests, "request")}, ${plural(b.credits, "credit")}${unpaid}`
      : "";
    lines.push(`  ${op.operationId.padEnd(10)} ${credits}${cases}`);
  }
  return lines;
}

/** The operations worth calibrating for the payment-refusal verdict: the bound probe is planned and has costly edges. */
export function refusalToCalibrate(contract: Contract, alt: Contract, scope: OperationScope, plan: Plan): string[] {
  return probesBounds(plan) ? refusalCandidates(contract, alt, scope) : [];
}

const probesBounds = (plan: Plan) => plan.checks.some((c) => (c.probes ?? []).some((p) => p.id === "bound-cases"));
