// An operation's security compared by what a client can still do: call it anonymously, authenticate with the
// credentials it has (each alternative of the requirement list, its schemes and scopes), and present them the way
// the scheme's definition says (type, scheme, header name).
import type { ChangeCollector } from "./changes.ts";
import type { OperationPair } from "./operation-diff.ts";
import { child, isObj, type Loc, type Obj, type Resolver } from "./resolve.ts";
import { canonical } from "./schema-view.ts";

type Alternative = Map<string, Set<string>>;

function requirements(side: Resolver, op: Loc): { loc: Loc; alternatives: Alternative[] } {
  const own = child(op, "security");
  const loc = Array.isArray(own.node) ? own : child({ node: side.document, pointer: "" }, "security");
  const list = Array.isArray(loc.node) ? (loc.node as unknown[]) : [];
  const alternatives = list
    .filter(isObj)
    .map(
      (req) =>
        new Map(
          Object.entries(req as Obj).map(([scheme, scopes]) => [
            scheme,
            new Set(Array.isArray(scopes) ? scopes.map(String) : []),
          ]),
        ),
    );
  return { loc, alternatives };
}

/** A client holding `held` satisfies `wanted` when it has each scheme wanted with each scope wanted. */
function satisfies(held: Alternative, wanted: Alternative): boolean {
  for (const [scheme, scopes] of wanted) {
    const mine = held.get(scheme);
    if (!mine) return false;
    for (const s of scopes) if (!mine.has(s)) return false;
  }
  return true;
}

const anonymous = (alts: Alternative[]) => alts.length === 0 || alts.some((a) => a.size === 0);
const describe = (a: Alternative) =>
  [...a].map(([scheme, scopes]) => (scopes.size ? `${scheme} (${[...scopes].join(", ")})` : scheme)).join(" + ");

function schemeDefinition(side: Resolver, name: string): Loc {
  return side.resolve(child({ node: side.document, pointer: "" }, "components", "securitySchemes", name));
}

/** The parts of a scheme's definition a client's request depends on. */
function wire(def: unknown): string {
  if (!isObj(def)) return "undefined";
  const { type, scheme, in: where, name, flows, openIdConnectUrl } = def as Obj;
  return canonical({
    type,
    scheme: typeof scheme === "string" ? scheme.toLowerCase() : scheme,
    in: where,
    name: typeof name === "string" && where === "header" ? name.toLowerCase() : name,
    flows,
    openIdConnectUrl,
  });
}

export function compareSecurity(pair: OperationPair, base: Resolver, revision: Resolver, out: ChangeCollector): void {
  const op = pair.revision.label;
  const b = requirements(base, pair.base.loc);
  const r = requirements(revision, pair.revision.loc);
  const bAnon = anonymous(b.alternatives);
  const rAnon = anonymous(r.alternatives);
  if (bAnon && !rAnon) {
    out.add(
      "security-required",
      `a client calling ${op} without credentials is now refused (401)`,
      b.loc.pointer,
      r.loc.pointer,
      op,
    );
  }
  if (!bAnon && rAnon)
    out.add("security-optional", `clients may now call ${op} without credentials`, b.loc.pointer, r.loc.pointer, op);
  for (const a of b.alternatives) {
    if (a.size === 0 || rAnon) continue;
    if (!r.alternatives.some((x) => x.size > 0 && satisfies(a, x))) {
      out.add(
        "security-scheme-removed",
        `a client authenticating to ${op} with ${describe(a)} is now refused`,
        b.loc.pointer,
        r.loc.pointer,
        op,
      );
    }
  }
  for (const x of r.alternatives) {
    if (x.size === 0 || bAnon) continue;
    if (!b.alternatives.some((a) => a.size > 0 && satisfies(x, a))) {
      out.add(
        "security-scheme-added",
        `clients may now authenticate to ${op} with ${describe(x)}`,
        b.loc.pointer,
        r.loc.pointer,
        op,
      );
    }
  }
  const used = new Set(b.alternatives.flatMap((a) => [...a.keys()]));
  for (const name of used) {
    if (!r.alternatives.some((x) => x.has(name))) continue;
    const bd = schemeDefinition(base, name);
    const rd = schemeDefinition(revision, name);
    if (wire(bd.node) !== wire(rd.node)) {
      out.add(
        "security-scheme-changed",
        `a client presenting ${name} credentials as before is now refused: the scheme's definition changed`,
        bd.pointer,
        rd.pointer,
        op,
      );
    }
  }
}
