// "The revision says nothing about X" is not "the revision removed X". A document written by someone else (the
// service's own published document, a partner's) often leaves out a whole kind of thing plumbline's contract
// describes: response headers, the error-code vocabulary, plumbline's discovery operations, rate limits, prices,
// decisions. Read as removals, each of those is a breaking change per header, per code, per path, and the few
// real differences drown. So a change whose whole kind the revision does not describe at all is set apart, in
// its own group, counted in no level and reaching no --fail-on; `--undescribed removed` reads them as removals
// again. A kind the revision does describe, somewhere, keeps every removal in it real: a revision that lists
// headers for one operation and not for another removed them from the other; an enum that lost a value lost it.
import type { SpecChange } from "./changes.ts";
import { errorCodes, priceOf } from "./contract-diff.ts";
import type { OperationPair, OperationRef } from "./operation-diff.ts";
import { child, isObj, type Resolver } from "./resolve.ts";
import type { RuleId } from "./rules.ts";

export type UndescribedKind =
  | "response-headers"
  | "error-codes"
  | "marked-operations"
  | "rate-limits"
  | "prices"
  | "price-details"
  | "decisions";

export interface UndescribedGroup {
  kind: UndescribedKind;
  /** what the base describes and the revision does not: "response headers", "operations marked x-discovery" */
  subject: string;
  /** one line: what the revision lacks and what of the base's is therefore not compared */
  summary: string;
  /** the changes set apart (empty for a kind no rule compares, e.g. decisions) */
  changes: SpecChange[];
}

export type UndescribedMode = "apart" | "removed";

interface Sides {
  base: Resolver;
  revision: Resolver;
  operations: { base: OperationRef[]; revision: OperationRef[] };
  pairs: OperationPair[];
}

const HEADER_RULES: readonly RuleId[] = ["response-required-header-removed", "response-optional-header-removed"];
const RATE_RULES: readonly RuleId[] = ["rate-limit-tightened", "rate-limit-loosened", "rate-limit-retry-after-changed"];
const OPERATION_RULES: readonly RuleId[] = ["path-removed", "operation-removed"];

/** True when some response of some operation declares a header. */
function describesHeaders(side: Resolver, ops: OperationRef[]): boolean {
  for (const op of ops) {
    const responses = child(op.loc, "responses");
    if (!isObj(responses.node)) continue;
    for (const status of Object.keys(responses.node)) {
      const headers = child(side.resolve(child(responses, status)), "headers");
      if (isObj(headers.node) && Object.keys(headers.node).length > 0) return true;
    }
  }
  return false;
}

const describesErrorCodes = (side: Resolver, ops: OperationRef[]) =>
  ops.some((op) => errorCodes(side, op.loc).size > 0);

/** The `x-` keys set to `true` on an operation: plumbline's markers of a kind of operation (`x-discovery`). */
function markers(op: OperationRef): string[] {
  const node = op.loc.node;
  return isObj(node) ? Object.keys(node).filter((k) => k.startsWith("x-") && node[k] === true) : [];
}

const sample = (names: Iterable<string>, max = 4) => {
  const all = [...new Set(names)];
  return all.length <= max ? all.join(", ") : `${all.length} in all: ${all.slice(0, max).join(", ")}, …`;
};
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const opsOf = (changes: SpecChange[]) => new Set(changes.flatMap((c) => c.operations));

/**
 * Splits the changes into the real ones and the groups the revision does not describe. With mode "removed" every
 * change stays real and the only groups left are those of what no rule compares (credits beside x-payment-info,
 * decisions), with no changes.
 */
export function separateUndescribed(
  changes: SpecChange[],
  sides: Sides,
  mode: UndescribedMode = "apart",
): { changes: SpecChange[]; groups: UndescribedGroup[] } {
  const { base, revision, operations } = sides;
  const groups: UndescribedGroup[] = [];
  const apart = new Set<SpecChange>();
  const take = (test: (c: SpecChange) => boolean) => {
    const taken = changes.filter((c) => !apart.has(c) && test(c));
    if (mode === "apart") for (const c of taken) apart.add(c);
    return taken;
  };
  // read as removals, a kind some rule compares is no group of its own; what no rule compares still is
  const add = (kind: UndescribedKind, subject: string, summary: string, taken: SpecChange[]) => {
    if (mode === "apart" || kind === "price-details" || kind === "decisions")
      groups.push({ kind, subject, summary, changes: mode === "apart" ? taken : [] });
  };

  if (describesHeaders(base, operations.base) && !describesHeaders(revision, operations.revision)) {
    const taken = take((c) => HEADER_RULES.includes(c.rule));
    const names = taken.map((c) => /the (\S+) header/.exec(c.message)?.[1] ?? "?");
    add(
      "response-headers",
      "response headers",
      `the revision declares no response header; ${count(taken.length, "header")} the base declares on the responses of ${count(opsOf(taken).size, "operation")} not compared (${sample(names)})`,
      taken,
    );
  }

  if (describesErrorCodes(base, operations.base) && !describesErrorCodes(revision, operations.revision)) {
    const taken = take((c) => c.rule === "error-code-removed");
    const codes = taken.map((c) => /matching on (\S+)/.exec(c.message)?.[1] ?? "?");
    add(
      "error-codes",
      "error codes",
      `the revision documents no error code (no error example carries a \`code\`); ${count(new Set(codes).size, "code")} the base documents on ${count(opsOf(taken).size, "operation")} not compared (${sample(codes)})`,
      taken,
    );
  }

  const revisionMarkers = new Set(operations.revision.flatMap(markers));
  const byMarker = new Map<string, Set<string>>();
  for (const op of operations.base)
    for (const m of markers(op))
      if (!revisionMarkers.has(m)) byMarker.set(m, (byMarker.get(m) ?? new Set()).add(op.label));
  for (const [marker, labels] of byMarker) {
    const taken = take((c) => OPERATION_RULES.includes(c.rule) && c.operations.every((o) => labels.has(o)));
    add(
      "marked-operations",
      `operations marked ${marker}`,
      `the revision marks no operation \`${marker}\`; ${count(opsOf(taken).size, "operation")} of the base's not compared (${sample(opsOf(taken))})`,
      taken,
    );
  }

  if (isObj(base.document["x-rate-limits"]) && revision.document["x-rate-limits"] === undefined) {
    const taken = take((c) => RATE_RULES.includes(c.rule));
    add(
      "rate-limits",
      "rate limits",
      `the revision has no \`x-rate-limits\`; the base's policy (${count(taken.length, "difference")} from the defaults) not compared`,
      taken,
    );
  }

  const priced = (ops: OperationRef[]) => ops.filter((op) => priceOf(op.loc) !== null);
  const basePriced = priced(operations.base);
  if (basePriced.length > 0 && priced(operations.revision).length === 0) {
    const taken = take((c) => c.rule === "operation-now-free");
    add(
      "prices",
      "prices",
      `the revision prices no operation (no \`x-pricing\` nor \`x-payment-info\`); ${count(opsOf(taken).size, "priced operation")} of the base's not compared`,
      taken,
    );
  } else {
    // an amount and protocols compared, but x-payment-info carries no credits nor surcharge
    let credits = 0;
    let surcharges = 0;
    for (const pair of sides.pairs) {
      const b = priceOf(pair.base.loc);
      const r = priceOf(pair.revision.loc);
      if (!b || !r || r.extension !== "x-payment-info") continue;
      if (b.credits !== undefined) credits++;
      if (b.surcharge) surcharges++;
    }
    if (credits + surcharges > 0) {
      add(
        "price-details",
        "credits and surcharges",
        `the revision prices with \`x-payment-info\` (an amount and protocols, compared); the credits of ${count(credits, "operation")}${surcharges > 0 ? ` and ${count(surcharges, "surcharge")}` : ""} of the base not compared`,
        [],
      );
    }
  }

  const decisions = base.document["x-decisions"];
  if (isObj(decisions) && !isObj(revision.document["x-decisions"])) {
    add(
      "decisions",
      "decisions",
      `the revision records no \`x-decisions\`; the base records ${count(Object.keys(decisions).length, "decision")} (documentation: never compared)`,
      [],
    );
  }

  return { changes: changes.filter((c) => !apart.has(c)), groups };
}
