// Packs boundary cases into as few requests as the properties allow (issue 17). A 422 lists every violated field
// (interface-spec Errors; D-error-codes), so rejected cases on distinct fields share one body whose answer must name
// each of them; valid edges on distinct fields share one body too, unless a known interaction would make a real
// target fail them together (SEMANTIC_CONFLICTS). Each grouping is confirmed with the contract's own validators
// (both bound sets): a group whose merged body does not name every member's violation, or is not valid, is split.

import type { Contract } from "@plumbline-kit/contract";
import { arrayBranch, type BoundCase, baseBody, withValue } from "@plumbline-kit/contract/bounds";

export interface Group<T extends { case: BoundCase }> {
  members: T[];
  body: unknown;
  /** trailing batch entries that only fill the batch up to its maximum */
  padding?: number;
}

/**
 * Valid edges that may not share a request: each is fine alone, but together they make a real renderer fail or
 * work far harder than any single edge (the mock would not notice, a browser engine does).
 */
type Side = { field: RegExp; keyword?: string };
export const SEMANTIC_CONFLICTS: Array<{ operationId: string; a: Side; b: Side; why: string }> = [
  {
    operationId: "screenshot",
    a: { field: /^\/delay_ms$/, keyword: "maximum" },
    b: { field: /^\/timeout_ms$/, keyword: "minimum" },
    why: "a 5 s delay outlives a 1 s timeout",
  },
  {
    operationId: "screenshot",
    a: { field: /^\/wait_for_selector$/, keyword: "maxLength" },
    b: { field: /^\/timeout_ms$/, keyword: "minimum" },
    why: "waiting for a selector that matches nothing outlives the shortest timeout",
  },
  {
    operationId: "screenshot",
    a: { field: /^\/viewport\/(width|height)$/, keyword: "maximum" },
    b: { field: /^\/viewport\/device_scale_factor$/, keyword: "maximum" },
    why: "the largest viewport at the largest scale is an image far larger than any single edge asks for",
  },
  {
    operationId: "trending",
    a: { field: /^\/search_service$/ },
    b: { field: /./ },
    why: "a platform the interface leaves open may be refused with 400 (D-trending-platforms), hiding its partner",
  },
];

const tokens = (p: string) => p.split("/").slice(1);

/** Whether one JSON Pointer is the other or a prefix of it (segment by segment). */
export function overlaps(a: string, b: string): boolean {
  const [x, y] = [tokens(a), tokens(b)];
  const n = Math.min(x.length, y.length);
  return x.slice(0, n).every((t, i) => t === y[i]);
}

function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const t of tokens(pointer)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[t];
  }
  return node;
}

const fits = (side: Side, c: BoundCase) => side.field.test(c.field) && (!side.keyword || side.keyword === c.keyword);

function conflicting(c: BoundCase, d: BoundCase): boolean {
  return SEMANTIC_CONFLICTS.some(
    (k) => k.operationId === c.operationId && ((fits(k.a, c) && fits(k.b, d)) || (fits(k.a, d) && fits(k.b, c))),
  );
}

/** A case that must go alone: whole-body cases (batches, the body's own type) and array bodies. */
export const standsAlone = (c: BoundCase) => c.field === "" || Array.isArray(c.body);

function merged(base: Record<string, unknown>, cases: BoundCase[]): Record<string, unknown> {
  return cases.reduce((body, c) => withValue(body, c.field, valueAt(c.body, c.field)), base);
}

function holds(contracts: Contract[], cases: BoundCase[], body: unknown, valid: boolean): boolean {
  return contracts.every((k) => {
    const r = k.validators.checkBody(cases[0].operationId, body);
    if (valid) return r.ok;
    if (r.ok || !("errors" in r)) return false;
    const errors = (r.errors ?? []) as Array<{ field?: string; code?: string }>;
    return cases.every((c) => errors.some((e) => e.field === c.field && e.code === c.keyword));
  });
}

/** First-fit packing of one operation's cases, all valid or all rejected in both sets. */
export function pack<T extends { case: BoundCase }>(
  contracts: Contract[],
  items: T[],
  valid: boolean,
): Array<Group<T>> {
  const groups: Array<Group<T>> = [];
  // the fields with most cases first: they set the number of requests
  const perField = new Map<string, number>();
  for (const i of items) perField.set(i.case.field, (perField.get(i.case.field) ?? 0) + 1);
  // ties: the edges that may not meet (SEMANTIC_CONFLICTS) first, maxima first, so they spread over the groups
  const constrained = (c: BoundCase) =>
    SEMANTIC_CONFLICTS.some((k) => k.operationId === c.operationId && (fits(k.a, c) || fits(k.b, c)));
  const rank = (i: T) =>
    (perField.get(i.case.field) ?? 0) * 4 + (constrained(i.case) ? 2 : 0) + (i.case.keyword === "maximum" ? 1 : 0);
  const order = [...items].sort((x, y) => rank(y) - rank(x));
  for (const item of order) {
    const c = item.case;
    if (standsAlone(c)) {
      groups.push({ members: [item], body: c.body });
      continue;
    }
    const base = baseBody(contracts[0].operation(c.operationId));
    const home = groups.find((g) => {
      const cs = g.members.map((m) => m.case);
      if (cs.some((d) => standsAlone(d) || overlaps(d.field, c.field) || (valid && conflicting(d, c)))) return false;
      const all = [...cs, c];
      const body = merged(base, all);
      if (!holds(contracts, all, body, valid)) return false;
      g.body = body;
      return true;
    });
    if (home) home.members.push(item);
    else groups.push({ members: [item], body: c.body });
  }
  return groups;
}

/**
 * The valid groups of a batch-capable operation carried as the entries of its largest accepted batch (D-batch-limits:
 * a batch is validated as a whole, so a 2xx batch accepted every entry), padded with the example body.
 */
export function asBatch<T extends { case: BoundCase }>(contract: Contract, groups: Array<Group<T>>): Array<Group<T>> {
  const batch = groups.find((g) => g.members.length === 1 && Array.isArray(g.body));
  const op = batch ? contract.operation(batch.members[0].case.operationId) : null;
  const max = op ? arrayBranch(op)?.maxItems : undefined;
  const singles = groups.filter((g) => g !== batch);
  if (!batch || !op || max === undefined || singles.length > max) return groups;
  const pad = baseBody(op);
  const padding = max - singles.length;
  const entries = [...singles.map((g) => g.body), ...Array.from({ length: padding }, () => pad)];
  return [{ members: [...batch.members, ...singles.flatMap((g) => g.members)], body: entries, padding }];
}
