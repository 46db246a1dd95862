// Positive and negative data (Schemathesis: positive_data_acceptance, negative_data_rejection), generated from the
// schemas by spec/bounds.ts: every bound at its edge accepted, one past it rejected, naming the field.

import type { Contract } from "@plumbline-kit/contract";
import { boundCases } from "@plumbline-kit/contract/bounds";
import { describe, failure, json, status } from "../check-helpers.ts";
import { boundCasesProbe, type SentCase } from "../probes/bound-cases.ts";
import { malformedBodiesProbe } from "../probes/malformed-bodies.ts";
import { REFUSAL_NOTE, refusalProblems } from "../probes/payment-refusal.ts";
import type { CheckDefinition, Failure } from "../types.ts";

const SECTION = "Resources and their fields; Endpoints; Limits 1";
/** Bound cases exist for every operation that takes a request body. */
const withBody = (c: Contract) => c.contractOperations.filter((o) => o.requestSchema).map((o) => o.operationId);
/** The operations whose request schema the two published bound sets define differently (Limits 2: search). */
const differBetweenSets = (c: Contract, alt: Contract) =>
  c.contractOperations
    .filter((o) => JSON.stringify(o.requestSchema) !== JSON.stringify(alt.operation(o.operationId).requestSchema))
    .map((o) => o.operationId);
const ok2xx = (s: number | null) => s !== null && s >= 200 && s < 300;
/**
 * Whether the target accepted the case: a 2xx, or, for a case sent with the unpayable Payment credential after a
 * successful calibration, the 402 refusal that comes only once validation passed (D-payment-challenge).
 */
const acceptedBy = (c: SentCase) => (c.unpaid ? status(c.exchange) === 402 : ok2xx(status(c.exchange)));
// a packed request's answer is every member's: the label says so, so a reader looks at the right field
const caseLabel = (c: SentCase) =>
  `${c.case.operationId}: ${c.case.label}${c.packed > 1 ? ` (one of ${c.packed} cases in the request)` : ""}`;

// Values the schema allows but the interface leaves open, so a target may refuse them outside schema validation
// with 400 (D-validation-status): the trending platforms are "not shown" (D-trending-platforms).
const OPEN_VALUES = [{ operationId: "trending", field: "/search_service" }];
const openValue = (c: SentCase) =>
  OPEN_VALUES.some((v) => v.operationId === c.case.operationId && v.field === c.case.field) &&
  status(c.exchange) === 400;

/**
 * An answer that shows the value passed validation and the work then failed: a 502 or 504 the contract lists for the
 * operation (an edge like screenshot's `timeout_ms: 1000` asks for a 504 on a slow page). Not a refusal of the
 * value; what a target does on upstream failure is judged by the checks of those outcomes.
 */
const failedAfterValidation = (contract: Contract, c: SentCase) => {
  const s = status(c.exchange);
  return (s === 502 || s === 504) && contract.operation(c.case.operationId).statuses.includes(s);
};

const edgeAccepted: CheckDefinition = {
  id: "bounds-edge-accepted",
  title: "Every value the contract allows is accepted (each bound at its edge, every enum value)",
  severity: "critical",
  section: SECTION,
  basis: { kind: "contract" },
  operations: withBody,
  probes: [boundCasesProbe],
  async run(ctx) {
    const { cases } = await ctx.probe(boundCasesProbe);
    // the values a decision adds to an enum are judged by bounds-decided-values-accepted, which rests on it
    const valid = cases.filter((c) => c.primaryValid && c.altValid && !c.case.decision);
    const afterValidation = valid.filter((c) => !c.unpaid && failedAfterValidation(ctx.contract, c));
    const failures = valid
      .filter((c) => !c.unpaid && !ok2xx(status(c.exchange)) && !openValue(c) && !afterValidation.includes(c))
      .map((c) => failure(`${caseLabel(c)} was refused`, [c.exchange], "2xx", describe(c.exchange)));
    // judged by the payment refusal: validation passed, and the challenge quotes the contract's price of the body
    // (also for a case only one bound set allows, once the target let it through validation)
    const unpaid = cases.filter(
      (c) => c.unpaid && !c.case.decision && ((c.primaryValid && c.altValid) || acceptedBy(c)),
    );
    const seen = new Set<number>();
    for (const c of unpaid) {
      const problems = refusalProblems(ctx.contract, c.exchange);
      if (problems.length === 0) continue;
      const refused = status(c.exchange) !== 402;
      if (!refused && seen.has(c.exchange.id)) continue; // a wrong price is the request's, said once
      seen.add(c.exchange.id);
      failures.push(
        failure(
          `${caseLabel(c)} ${refused ? "was refused" : "drew a payment refusal at another price"} (sent with an unpayable Payment credential: ${problems.join("; ")})`,
          [c.exchange],
          `402 PLB_PAYMENT_INVALID whose challenge amount is the body's contract price (${REFUSAL_NOTE})`,
          describe(c.exchange),
        ),
      );
    }
    const refusals = valid.filter((c) => c.unpaid && refusalProblems(ctx.contract, c.exchange).length === 0).length;
    const notes = [`${valid.length} valid cases sent`];
    if (refusals) notes.push(`${refusals} of them ${REFUSAL_NOTE} (402 at the contract's price)`);
    if (afterValidation.length)
      notes.push(
        `${afterValidation.length} accepted by validation, then answered ${[...new Set(afterValidation.map((c) => status(c.exchange)))].join(", ")} (the work failed or ran out of time; not a refusal of the value): ${afterValidation.map(caseLabel).join("; ")}`,
      );
    return { failures, notes };
  },
};

const pastRejected: CheckDefinition = {
  id: "bounds-past-rejected",
  title: "Every value one past a bound, unknown properties, wrong types and missing fields are rejected",
  severity: "critical",
  section: SECTION,
  basis: { kind: "contract" },
  operations: withBody,
  probes: [boundCasesProbe],
  async run(ctx) {
    const { cases, leftOut } = await ctx.probe(boundCasesProbe);
    const invalid = cases.filter((c) => !c.primaryValid && !c.altValid);
    // the interface pins a rejection, not its status: 400 and 422 are both listed for every paid operation
    const failures = invalid
      .filter((c) => ![400, 422].includes(status(c.exchange) ?? 0))
      .map((c) => failure(`${caseLabel(c)} was not rejected`, [c.exchange], "400 or 422", describe(c.exchange)));
    const notes = [`${invalid.length} invalid cases sent`];
    for (const [op, n] of leftOut)
      notes.push(`${op}: ${n} refusals derived from the schema left out, to keep within its own rate window`);
    return { failures, notes };
  },
};

const decidedAccepted: CheckDefinition = {
  id: "bounds-decided-values-accepted",
  title: "The search_service values beyond the interface's list (sogou, yandex) are accepted",
  severity: "minor",
  section: "Search parameters",
  basis: { kind: "decision", decision: "D-search-engine-values" },
  operations: (c) => [...new Set(boundCases(c).flatMap((b) => (b.decision ? [b.operationId] : [])))],
  probes: [boundCasesProbe],
  async run(ctx) {
    const { cases } = await ctx.probe(boundCasesProbe);
    const decided = cases.filter((c) => c.case.decision && c.primaryValid && c.altValid);
    if (decided.length === 0) return { failures: [], skip: "no value of the run rests on a decision" };
    const failures = decided
      .filter((c) => !acceptedBy(c) || (c.unpaid && refusalProblems(ctx.contract, c.exchange).length > 0))
      .map((c) =>
        failure(
          `${caseLabel(c)} was refused (${c.case.decision}: the service's own client sends it)`,
          [c.exchange],
          c.unpaid ? `402 PLB_PAYMENT_INVALID at the body's price (${REFUSAL_NOTE})` : "2xx",
          describe(c.exchange),
        ),
      );
    return { failures, notes: [`${decided.length} values sent: ${decided.map((c) => c.case.label).join(", ")}`] };
  },
};

const namesField: CheckDefinition = {
  id: "bounds-rejection-names-field",
  title: "A schema violation answers 422 whose errors[] names the field (JSON Pointer) and the failed keyword",
  severity: "major",
  section: "Errors",
  basis: { kind: "decision", decision: "D-error-codes" },
  operations: withBody,
  probes: [boundCasesProbe],
  async run(ctx) {
    const { cases } = await ctx.probe(boundCasesProbe);
    const failures: Failure[] = [];
    for (const c of cases.filter((x) => !x.primaryValid && !x.altValid)) {
      const errors = json<{ errors?: Array<{ field?: unknown; code?: unknown }> }>(c.exchange)?.errors;
      const named = Array.isArray(errors) && errors.some((e) => e.field === c.case.field && e.code === c.case.keyword);
      if (status(c.exchange) === 422 && named) continue;
      failures.push(
        failure(
          `${caseLabel(c)}: the rejection does not name the field`,
          [c.exchange],
          `422 with errors[] holding {field: "${c.case.field}", code: "${c.case.keyword}"}`,
          `${describe(c.exchange)} ${JSON.stringify(errors ?? null)}`,
        ),
      );
    }
    return { failures };
  },
};

const malformed400: CheckDefinition = {
  id: "bounds-malformed-400",
  title: "Malformed JSON, a non-JSON content type, a non-object body and a bad query parameter answer 400",
  severity: "major",
  section: "Errors",
  basis: { kind: "decision", decision: "D-validation-status" },
  probes: [malformedBodiesProbe],
  async run(ctx) {
    const { sent } = await ctx.probe(malformedBodiesProbe);
    const failures = sent
      .filter((s) => status(s.exchange) !== 400)
      .map((s) => failure(`${s.case.label} was not answered 400`, [s.exchange], "400", describe(s.exchange)));
    return { failures };
  },
};

const publishedSet: CheckDefinition = {
  id: "bounds-published-set",
  title: "The target enforces the primary published bound set for search (alt-bounds profile: either set)",
  severity: "major",
  section: "Limits 2",
  basis: { kind: "decision", decision: "D-bound-sets" },
  operations: differBetweenSets,
  probes: [boundCasesProbe],
  async run(ctx) {
    const { cases } = await ctx.probe(boundCasesProbe);
    const differing = cases.filter((c) => c.primaryValid !== c.altValid);
    const accepted = acceptedBy;
    const primaryMisses = differing.filter((c) => accepted(c) !== c.primaryValid);
    const altMisses = differing.filter((c) => accepted(c) !== c.altValid);
    const enforced = primaryMisses.length === 0 ? "primary" : altMisses.length === 0 ? "alt-bounds" : "neither";
    const notes = [`bound set enforced: ${enforced} (${differing.length} cases where the two sets differ)`];
    const misses = primaryMisses.map((c) =>
      failure(
        `${caseLabel(c)}: the target ${accepted(c) ? "accepted" : "rejected"} it; the primary set ${c.primaryValid ? "allows" : "forbids"} it`,
        [c.exchange],
        c.primaryValid ? "2xx" : "400 or 422",
        describe(c.exchange),
      ),
    );
    const facts = { "bound-set": enforced };
    if (enforced === "primary") return { failures: [], notes, facts };
    if (ctx.options.profile === "alt-bounds" && enforced === "alt-bounds") return { failures: [], notes, facts };
    return { failures: misses, notes, facts };
  },
};

export const BOUNDS_CHECKS = [edgeAccepted, decidedAccepted, pastRejected, namesField, malformed400, publishedSet];
