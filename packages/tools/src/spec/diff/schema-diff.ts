// Two schemas compared by meaning, in the direction they travel: a request schema is what the server accepts (a
// narrower one refuses clients that were accepted), a response schema is what clients receive (a wider one hands
// them values they were not told of). Recursion stops at a pair of schemas already being compared, so a recursive
// schema ends; shared components are compared once per operation and reported once (changes.ts).
import type { ChangeSink } from "./changes.ts";
import { child, isObj, type Loc, type Resolver } from "./resolve.ts";
import type { RuleId } from "./rules.ts";
import { ANNOTATIONS, canonical, type SchemaView, schemaView, typesOf } from "./schema-view.ts";

export type Direction = "request" | "response";

export interface SchemaScope {
  dir: Direction;
  /** `METHOD /path` */
  operation: string;
  /** the field's path in messages: `max_results`, `results[].title`; "" for a whole body */
  field: string;
  /** true at the top of a request body (where an object-or-array choice is the body's form) */
  bodyRoot: boolean;
  /** what a field at "" is called: "the request body", "the 200 response", "query parameter `q`" */
  rootName: string;
  visited: Set<string>;
}

export interface SchemaSides {
  base: Resolver;
  revision: Resolver;
  out: ChangeSink;
}

const HANDLED = new Set([
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "multipleOf",
  "uniqueItems",
  "pattern",
  "format",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "default",
]);

const name = (s: SchemaScope) => (s.field === "" ? s.rootName : `\`${s.field}\``);
const show = (v: unknown) => JSON.stringify(v);
const sub = (s: SchemaScope, field: string): SchemaScope => ({ ...s, field, bodyRoot: false });
const fieldOf = (s: SchemaScope, key: string) => (s.field === "" ? key : `${s.field}.${key}`);

function primaryTypes(view: SchemaView): string {
  const t = typesOf(view);
  if (!t) return view.props.size > 0 ? "object" : "any";
  return (
    [...t]
      .filter((x) => x !== "null")
      .sort()
      .join(",") || "null"
  );
}

export function compareSchemas(b: Loc, r: Loc, scope: SchemaScope, sides: SchemaSides): void {
  const bv = schemaView(sides.base, b);
  const rv = schemaView(sides.revision, r);
  const pair = `${scope.dir}\u0000${bv.pointer}\u0000${rv.pointer}`;
  const key = `${pair}\u0000${scope.field}`;
  if (scope.visited.has(key)) return;
  // a recursive schema meets the same pair again one level down: compare it once, at its shallowest field
  if (scope.visited.has(pair) && bv.refName) return;
  scope.visited.add(key);
  scope.visited.add(pair);
  if (bv.branches || rv.branches) {
    compareBranches(bv, rv, b, r, scope, sides);
    return;
  }
  compareViews(bv, rv, scope, sides);
}

function compareBranches(bv: SchemaView, rv: SchemaView, b: Loc, r: Loc, scope: SchemaScope, sides: SchemaSides): void {
  const bb = bv.branches ?? [b];
  const rb = rv.branches ?? [r];
  const describe = (side: Resolver, loc: Loc) => {
    const v = schemaView(side, loc);
    return { loc, view: v, types: primaryTypes(v), ref: v.refName };
  };
  const left = bb.map((l) => describe(sides.base, l));
  const right = rb.map((l) => describe(sides.revision, l));
  const pairs: Array<[(typeof left)[number], (typeof right)[number]]> = [];
  const take = (match: (x: (typeof left)[number], y: (typeof right)[number]) => boolean) => {
    for (const x of [...left]) {
      const y = right.find((c) => match(x, c));
      if (!y) continue;
      pairs.push([x, y]);
      left.splice(left.indexOf(x), 1);
      right.splice(right.indexOf(y), 1);
    }
  };
  take((x, y) => x.ref !== undefined && x.ref === y.ref);
  take((x, y) => x.types === y.types && canonical(x.view.kw) === canonical(y.view.kw));
  take((x, y) => x.types === y.types);
  for (const [x, y] of pairs) compareSchemas(x.loc, y.loc, { ...scope }, sides);
  // with both sides a choice, the keywords beside oneOf/anyOf hold for every alternative
  if (bv.branches && rv.branches) compareViews(bv, rv, scope, sides);
  const out = sides.out;
  const formOf = (types: string) => (types === "array" ? "an array (batch) body" : `a JSON ${types} body`);
  for (const x of left) {
    if (scope.dir === "request") {
      const form = scope.bodyRoot && (x.types === "array" || x.types === "object");
      out.add(
        form ? "request-body-form-removed" : "request-alternative-removed",
        form
          ? `a client sending ${formOf(x.types)} is now refused`
          : `a client sending ${name(scope)} as ${x.ref ?? x.types} is now refused`,
        x.view.pointer,
        rv.pointer,
        scope.operation,
      );
    } else {
      out.add(
        "response-alternative-removed",
        `${name(scope)} is no longer sent as ${x.ref ?? x.types}`,
        x.view.pointer,
        rv.pointer,
        scope.operation,
      );
    }
  }
  for (const y of right) {
    if (scope.dir === "request") {
      const form = scope.bodyRoot && (y.types === "array" || y.types === "object");
      out.add(
        form ? "request-body-form-added" : "request-alternative-added",
        form ? `clients may now send ${formOf(y.types)}` : `${name(scope)} may now be sent as ${y.ref ?? y.types}`,
        bv.pointer,
        y.view.pointer,
        scope.operation,
      );
    } else {
      out.add(
        "response-alternative-added",
        `a client may now receive ${name(scope)} as ${y.ref ?? y.types}, which it was not told of`,
        bv.pointer,
        y.view.pointer,
        scope.operation,
      );
    }
  }
}

const covers = (set: Set<string>, t: string) => set.has(t) || (t === "integer" && set.has("number"));

function compareViews(bv: SchemaView, rv: SchemaView, scope: SchemaScope, sides: SchemaSides): void {
  const out = sides.out;
  const add = (rule: RuleId, message: string, kwB: string | null, kwR: string | null) =>
    out.add(
      rule,
      message,
      kwB === null ? bv.pointer : (bv.at[kwB] ?? bv.pointer),
      kwR === null ? rv.pointer : (rv.at[kwR] ?? rv.pointer),
      scope.operation,
    );
  const req = scope.dir === "request";
  const what = name(scope);

  // types, with null apart
  const bt = typesOf(bv);
  const rt = typesOf(rv);
  if (bt && rt) {
    const bn = new Set([...bt].filter((t) => t !== "null"));
    const rn = new Set([...rt].filter((t) => t !== "null"));
    const lost = [...bn].filter((t) => !covers(rn, t));
    const gained = [...rn].filter((t) => !covers(bn, t));
    const from = [...bn].join(" or ") || "null";
    const to = [...rn].join(" or ") || "null";
    if (req && lost.length && gained.length)
      add("request-type-changed", `a client sending ${what} as ${from} is now refused (now ${to})`, "type", "type");
    else if (req && lost.length)
      add("request-type-narrowed", `a client sending ${what} as ${lost.join(" or ")} is now refused`, "type", "type");
    else if (req && gained.length)
      add("request-type-widened", `${what} now also accepts ${gained.join(" or ")}`, "type", "type");
    else if (!req && gained.length)
      add("response-type-changed", `a client may now receive ${what} as ${to}, not ${from}`, "type", "type");
    else if (!req && lost.length)
      add("response-type-narrowed", `${what} is no longer sent as ${lost.join(" or ")}`, "type", "type");
    const nb = bt.has("null");
    const nr = rt.has("null");
    if (req && nb && !nr)
      add("request-nullable-removed", `a client sending ${what}: null is now refused`, "type", "type");
    if (req && !nb && nr) add("request-nullable-added", `${what} now accepts null`, "type", "type");
    if (!req && !nb && nr)
      add(
        "response-nullable-added",
        `a client may now receive ${what}: null, which it was not told of`,
        "type",
        "type",
      );
    if (!req && nb && !nr) add("response-nullable-removed", `${what} is never null now`, "type", "type");
    // nothing in common: the keywords below compare different kinds of value
    if (bn.size && rn.size && ![...bn].some((t) => covers(rn, t) || [...rn].some((u) => covers(bn, u)))) return;
  } else if (!bt && rt && !rv.branches) {
    const only = [...rt].join(" or ");
    if (req) add("request-type-narrowed", `${what} now accepts only ${only}; other values are refused`, null, "type");
    else add("response-type-narrowed", `${what} is now always ${only}`, null, "type");
  } else if (bt && !rt) {
    if (req) add("request-type-widened", `${what} now accepts any type`, "type", null);
    else add("response-type-changed", `a client may now receive ${what} of any type`, "type", null);
  }

  compareEnums(bv, rv, scope, sides);
  compareBounds(bv, rv, scope, sides);
  if (canonical(bv.kw.format) !== canonical(rv.kw.format)) {
    const b = bv.kw.format as string | undefined;
    const r = rv.kw.format as string | undefined;
    if (req && r !== undefined)
      add(
        "request-format-changed",
        `${what} must now be ${r}${b ? `, not ${b}` : ""}: other values are refused`,
        "format",
        "format",
      );
    else if (req) add("request-bound-loosened", `${what} is no longer checked as ${b}`, "format", "format");
    else
      add(
        "response-format-changed",
        `${what} is now sent as ${r ?? "any format"}, not ${b ?? "any format"}`,
        "format",
        "format",
      );
  }
  if (req && "default" in bv.kw !== "default" in rv.kw) {
    add(
      "request-default-changed",
      `a client omitting ${what} now gets ${"default" in rv.kw ? show(rv.kw.default) : "no default"}${"default" in bv.kw ? `, not ${show(bv.kw.default)}` : ""}`,
      "default",
      "default",
    );
  } else if (req && canonical(bv.kw.default) !== canonical(rv.kw.default)) {
    add(
      "request-default-changed",
      `a client omitting ${what} now gets ${show(rv.kw.default)}, not ${show(bv.kw.default)}`,
      "default",
      "default",
    );
  }
  compareObjects(bv, rv, scope, sides);
  compareArrays(bv, rv, scope, sides);

  const rest = new Set([...Object.keys(bv.kw), ...Object.keys(rv.kw)]);
  for (const k of rest) {
    if (HANDLED.has(k) || ANNOTATIONS.has(k) || k.startsWith("x-")) continue;
    if (canonical(bv.kw[k]) === canonical(rv.kw[k])) continue;
    add(
      req ? "request-schema-changed" : "response-schema-changed",
      `${what}: \`${k}\` changed (${show(bv.kw[k]) ?? "absent"} → ${show(rv.kw[k]) ?? "absent"})`,
      k,
      k,
    );
  }
}

function enumOf(view: SchemaView): unknown[] | null {
  if (Array.isArray(view.kw.enum)) return view.kw.enum;
  if ("const" in view.kw) return [view.kw.const];
  return null;
}

function compareEnums(bv: SchemaView, rv: SchemaView, scope: SchemaScope, sides: SchemaSides): void {
  const be = enumOf(bv)?.filter((v) => v !== null) ?? null;
  const re = enumOf(rv)?.filter((v) => v !== null) ?? null;
  if (!be && !re) return;
  const req = scope.dir === "request";
  const what = name(scope);
  const bKw = "enum" in bv.kw ? "enum" : "const";
  const rKw = "enum" in rv.kw ? "enum" : "const";
  const bAt = bv.at[bKw] ?? bv.pointer;
  const rAt = rv.at[rKw] ?? rv.pointer;
  const out = sides.out;
  if (be && !re) {
    if (req)
      out.add(
        "request-enum-value-added",
        `${what} now accepts any value, not only ${be.map(show).join(", ")}`,
        bAt,
        rAt,
        scope.operation,
      );
    else
      out.add(
        "response-enum-value-added",
        `a client may now receive ${what} outside ${be.map(show).join(", ")}`,
        bAt,
        rAt,
        scope.operation,
      );
    return;
  }
  if (!be && re) {
    if (req)
      out.add(
        "request-enum-value-removed",
        `${what} now accepts only ${re.map(show).join(", ")}: a client sending another value is refused`,
        bAt,
        rAt,
        scope.operation,
      );
    else
      out.add(
        "response-enum-value-removed",
        `${what} is now one of ${re.map(show).join(", ")}`,
        bAt,
        rAt,
        scope.operation,
      );
    return;
  }
  const bKeys = (be as unknown[]).map(canonical);
  const rKeys = (re as unknown[]).map(canonical);
  const rawR = (enumOf(rv) ?? []).map(canonical);
  const rawB = (enumOf(bv) ?? []).map(canonical);
  for (const [i, k] of bKeys.entries()) {
    if (rKeys.includes(k)) continue;
    const v = show((be as unknown[])[i]);
    const at = bKw === "enum" ? `${bAt}/${rawB.indexOf(k)}` : bAt;
    if (req)
      out.add("request-enum-value-removed", `a client sending ${what}: ${v} is now refused`, at, rAt, scope.operation);
    else out.add("response-enum-value-removed", `${what} is never ${v} now`, at, rAt, scope.operation);
  }
  for (const [i, k] of rKeys.entries()) {
    if (bKeys.includes(k)) continue;
    const v = show((re as unknown[])[i]);
    const at = rKw === "enum" ? `${rAt}/${rawR.indexOf(k)}` : rAt;
    if (req) out.add("request-enum-value-added", `${what} now accepts ${v}`, bAt, at, scope.operation);
    else
      out.add(
        "response-enum-value-added",
        `a client may now receive ${what}: ${v}, which an exhaustive switch over the old values does not handle`,
        bAt,
        at,
        scope.operation,
      );
  }
}

interface Bound {
  v: number;
  excl: boolean;
  kw: string;
}

function numericBound(view: SchemaView, side: "lower" | "upper"): Bound | null {
  const [incl, excl] = side === "lower" ? ["minimum", "exclusiveMinimum"] : ["maximum", "exclusiveMaximum"];
  const a = typeof view.kw[incl] === "number" ? { v: view.kw[incl] as number, excl: false, kw: incl } : null;
  const b = typeof view.kw[excl] === "number" ? { v: view.kw[excl] as number, excl: true, kw: excl } : null;
  if (!a || !b) return a ?? b;
  const tighter = side === "lower" ? b.v >= a.v : b.v <= a.v;
  return tighter ? b : a;
}

/** -1: r admits less than b; 1: more; 0: the same. */
function compareNumeric(b: Bound | null, r: Bound | null, side: "lower" | "upper"): number {
  if (!b && !r) return 0;
  if (!b) return -1;
  if (!r) return 1;
  if (b.v === r.v) return b.excl === r.excl ? 0 : r.excl ? -1 : 1;
  const rHigher = r.v > b.v;
  return side === "lower" ? (rHigher ? -1 : 1) : rHigher ? 1 : -1;
}

const COUNTS: Array<[string, string, string]> = [
  ["minLength", "maxLength", "characters"],
  ["minItems", "maxItems", "items"],
  ["minProperties", "maxProperties", "fields"],
];

function compareBounds(bv: SchemaView, rv: SchemaView, scope: SchemaScope, sides: SchemaSides): void {
  const req = scope.dir === "request";
  const what = name(scope);
  const out = sides.out;
  const integer = typesOf(rv)?.has("integer") && !typesOf(rv)?.has("number");
  const report = (tightened: boolean, message: string, kwB: string, kwR: string) => {
    const rule: RuleId = req
      ? tightened
        ? "request-bound-tightened"
        : "request-bound-loosened"
      : tightened
        ? "response-bound-tightened"
        : "response-bound-loosened";
    out.add(rule, message, bv.at[kwB] ?? bv.pointer, rv.at[kwR] ?? rv.pointer, scope.operation);
  };
  const fmt = (b: Bound | null) => (b ? `${b.kw} ${b.v}` : "none");
  for (const side of ["lower", "upper"] as const) {
    const b = numericBound(bv, side);
    const r = numericBound(rv, side);
    const c = compareNumeric(b, r, side);
    if (c === 0) continue;
    const kwB = b?.kw ?? (side === "lower" ? "minimum" : "maximum");
    const kwR = r?.kw ?? kwB;
    const change = b && r && b.kw === r.kw ? `(${b.kw} ${b.v} → ${r.v})` : `(${fmt(b)} → ${fmt(r)})`;
    const tightened = c < 0;
    let message: string;
    if (req && tightened && r) {
      // the value just past the new bound: the bound itself when it became exclusive
      const step = r.excl ? 0 : integer ? 1 : 0.5;
      const example = side === "lower" ? r.v - step : r.v + step;
      message = `a client sending \`${scope.field || "the value"}: ${example}\` is now refused ${change}`;
    } else if (req) message = `${what} accepts ${side === "lower" ? "smaller" : "larger"} values now ${change}`;
    else if (!tightened)
      message = `a client may now receive ${what} ${side === "lower" ? "below" : "above"} the old bound ${change}`;
    else message = `${what} now stays within a tighter bound ${change}`;
    report(tightened, message, kwB, kwR);
  }
  for (const [minKw, maxKw, unit] of COUNTS) {
    for (const [kw, lower] of [
      [minKw, true],
      [maxKw, false],
    ] as const) {
      const b = bv.kw[kw] as number | undefined;
      const r = rv.kw[kw] as number | undefined;
      if (b === r || (lower && (b ?? 0) === (r ?? 0))) continue;
      const tightened = lower ? (r ?? 0) > (b ?? 0) : r !== undefined && (b === undefined || r < b);
      const change = `(${kw} ${b ?? "none"} → ${r ?? "none"})`;
      let message: string;
      if (req && tightened)
        message = `a client sending ${what} with ${lower ? (r as number) - 1 : (r as number) + 1} ${unit} is now refused ${change}`;
      else if (req) message = `${what} accepts ${lower ? "fewer" : "more"} ${unit} now ${change}`;
      else if (!tightened)
        message = `a client may now receive ${what} with ${lower ? "fewer" : "more"} ${unit} than before ${change}`;
      else message = `${what} now stays within a tighter bound ${change}`;
      report(tightened, message, kw, kw);
    }
  }
  const bm = bv.kw.multipleOf as number | undefined;
  const rm = rv.kw.multipleOf as number | undefined;
  if (bm !== rm) {
    // multiples of rm are a subset of multiples of bm unless bm is itself a multiple of rm
    const tightened = rm !== undefined && (bm === undefined || bm % rm !== 0);
    report(tightened, `${what}: multipleOf ${bm ?? "none"} → ${rm ?? "none"}`, "multipleOf", "multipleOf");
  }
  if (Boolean(bv.kw.uniqueItems) !== Boolean(rv.kw.uniqueItems)) {
    const tightened = rv.kw.uniqueItems === true;
    report(
      tightened,
      tightened && req
        ? `a client sending ${what} with repeated items is now refused`
        : `${what}: uniqueItems ${Boolean(bv.kw.uniqueItems)} → ${Boolean(rv.kw.uniqueItems)}`,
      "uniqueItems",
      "uniqueItems",
    );
  }
  const bp = bv.kw.pattern as string | undefined;
  const rp = rv.kw.pattern as string | undefined;
  if (bp !== rp) {
    if (bp !== undefined && rp !== undefined) {
      out.add(
        req ? "request-pattern-changed" : "response-pattern-changed",
        req
          ? `a client sending ${what} that matches \`${bp}\` but not \`${rp}\` is now refused`
          : `a client may now receive ${what} matching \`${rp}\`, not \`${bp}\``,
        bv.at.pattern,
        rv.at.pattern,
        scope.operation,
      );
    } else if (rp !== undefined) {
      report(
        true,
        req
          ? `a client sending ${what} that does not match \`${rp}\` is now refused`
          : `${what} now always matches \`${rp}\``,
        "pattern",
        "pattern",
      );
    } else {
      report(
        false,
        req
          ? `${what} no longer has to match \`${bp}\``
          : `a client may now receive ${what} that does not match \`${bp}\``,
        "pattern",
        "pattern",
      );
    }
  }
}

type Extra = "open" | "closed" | Loc;

function extraOf(view: SchemaView): Extra {
  const ap = view.kw.additionalProperties;
  if (ap === false) return "closed";
  if (isObj(ap)) return { node: ap, pointer: view.at.additionalProperties };
  if (ap === undefined && view.kw.unevaluatedProperties === false) return "closed";
  return "open";
}

function isObjectish(view: SchemaView): boolean {
  const t = typesOf(view);
  return !t || t.has("object");
}

function compareObjects(bv: SchemaView, rv: SchemaView, scope: SchemaScope, sides: SchemaSides): void {
  if (!isObjectish(bv) && !isObjectish(rv)) return;
  const out = sides.out;
  const req = scope.dir === "request";
  const bReq = new Set(Array.isArray(bv.kw.required) ? (bv.kw.required as string[]) : []);
  const rReq = new Set(Array.isArray(rv.kw.required) ? (rv.kw.required as string[]) : []);
  const names = new Set([...bv.props.keys(), ...rv.props.keys(), ...bReq, ...rReq]);
  const bProps = bv.at.properties ?? bv.pointer;
  const rProps = rv.at.properties ?? rv.pointer;
  const bPropsAt = (n: string) => bv.props.get(n)?.pointer ?? bv.at.required ?? bv.pointer;
  const rPropsAt = (n: string) => rv.props.get(n)?.pointer ?? rv.at.required ?? rv.pointer;
  for (const n of names) {
    const f = `\`${fieldOf(scope, n)}\``;
    const inB = bv.props.has(n) || bReq.has(n);
    const inR = rv.props.has(n) || rReq.has(n);
    if (inB && !inR) {
      if (req)
        out.add(
          "request-property-removed",
          `a client sending ${f} is now refused or ignored`,
          bPropsAt(n),
          rProps,
          scope.operation,
        );
      else if (bReq.has(n))
        out.add(
          "response-required-property-removed",
          `a client reading ${f} no longer finds it`,
          bPropsAt(n),
          rProps,
          scope.operation,
        );
      else
        out.add(
          "response-optional-property-removed",
          `a client reading ${f} never finds it now`,
          bPropsAt(n),
          rProps,
          scope.operation,
        );
      continue;
    }
    if (!inB && inR) {
      if (req && rReq.has(n))
        out.add(
          "request-required-property-added",
          `a client that does not send ${f} is now refused`,
          bProps,
          rPropsAt(n),
          scope.operation,
        );
      else if (req)
        out.add("request-property-added", `clients may now send ${f}`, bProps, rPropsAt(n), scope.operation);
      else out.add("response-property-added", `clients may now read ${f}`, bProps, rPropsAt(n), scope.operation);
      continue;
    }
    if (bReq.has(n) !== rReq.has(n)) {
      const nowRequired = rReq.has(n);
      const at = [bv.at.required ?? bPropsAt(n), rv.at.required ?? rPropsAt(n)] as const;
      if (req && nowRequired)
        out.add(
          "request-property-became-required",
          `a client that does not send ${f} is now refused`,
          ...at,
          scope.operation,
        );
      else if (req)
        out.add("request-property-became-optional", `clients may now leave ${f} out`, ...at, scope.operation);
      else if (nowRequired)
        out.add("response-property-became-required", `${f} is now always sent`, ...at, scope.operation);
      else
        out.add(
          "response-property-became-optional",
          `a client reading ${f} may now find it absent`,
          ...at,
          scope.operation,
        );
    }
    const bl = bv.props.get(n);
    const rl = rv.props.get(n);
    if (bl && rl) compareSchemas(bl, rl, sub(scope, fieldOf(scope, n)), sides);
  }
  const be = extraOf(bv);
  const re = extraOf(rv);
  const what = name(scope);
  const bAt = bv.at.additionalProperties ?? bv.at.unevaluatedProperties ?? bv.pointer;
  const rAt = rv.at.additionalProperties ?? rv.at.unevaluatedProperties ?? rv.pointer;
  if (be === "closed" && re !== "closed") {
    if (req)
      out.add(
        "request-additional-properties-opened",
        `${what} now accepts fields it does not name`,
        bAt,
        rAt,
        scope.operation,
      );
    else
      out.add(
        "response-additional-properties-opened",
        `a client may now receive fields of ${what} it was not told of`,
        bAt,
        rAt,
        scope.operation,
      );
  } else if (be !== "closed" && re === "closed") {
    if (req)
      out.add(
        "request-additional-properties-closed",
        `a client sending a field ${what} does not name is now refused`,
        bAt,
        rAt,
        scope.operation,
      );
  }
  if (typeof be === "object" || typeof re === "object") {
    const bl = typeof be === "object" ? be : be === "open" ? { node: {}, pointer: bAt } : null;
    const rl = typeof re === "object" ? re : re === "open" ? { node: {}, pointer: rAt } : null;
    if (bl && rl) compareSchemas(bl, rl, sub(scope, fieldOf(scope, "*")), sides);
  }
}

function compareArrays(bv: SchemaView, rv: SchemaView, scope: SchemaScope, sides: SchemaSides): void {
  const bi = bv.kw.items;
  const ri = rv.kw.items;
  const field = `${scope.field || ""}[]`;
  if (bi !== undefined || ri !== undefined) {
    const bl = bi === undefined ? { node: {}, pointer: bv.pointer } : { node: bi, pointer: bv.at.items };
    const rl = ri === undefined ? { node: {}, pointer: rv.pointer } : { node: ri, pointer: rv.at.items };
    compareSchemas(bl, rl, sub(scope, field), sides);
  }
  const bp = Array.isArray(bv.kw.prefixItems) ? bv.kw.prefixItems : [];
  const rp = Array.isArray(rv.kw.prefixItems) ? rv.kw.prefixItems : [];
  for (let i = 0; i < Math.min(bp.length, rp.length); i++) {
    compareSchemas(
      child({ node: bv.kw.prefixItems, pointer: bv.at.prefixItems }, i),
      child({ node: rv.kw.prefixItems, pointer: rv.at.prefixItems }, i),
      sub(scope, `${scope.field}[${i}]`),
      sides,
    );
  }
  if (bp.length !== rp.length) {
    const req = scope.dir === "request";
    sides.out.add(
      req ? "request-schema-changed" : "response-schema-changed",
      `${name(scope)}: prefixItems has ${rp.length} positions, not ${bp.length}`,
      bv.at.prefixItems ?? bv.pointer,
      rv.at.prefixItems ?? rv.pointer,
      scope.operation,
    );
  }
}
