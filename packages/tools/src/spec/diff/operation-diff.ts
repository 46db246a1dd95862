// Operations matched across the two documents (by method and path template, path parameter names aside; an
// operationId found elsewhere is an operation that moved), then compared: parameters, request body, responses.
import type { ChangeCollector } from "./changes.ts";
import { child, isObj, type Loc, type Obj, type Resolver } from "./resolve.ts";
import { compareSchemas, type Direction, type SchemaScope, type SchemaSides } from "./schema-diff.ts";
import { ANNOTATIONS } from "./schema-view.ts";

type ScopeOf = (dir: Direction, rootName: string, field?: string, bodyRoot?: boolean) => SchemaScope;
/** The sides with the collector itself, whose sink per response status names the error bodies (changes.ts). */
type OperationSides = SchemaSides & { out: ChangeCollector };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface OperationRef {
  /** `POST /search` */
  label: string;
  method: string;
  path: string;
  /** method and path with parameter names dropped: `GET /deepcrawl/status/{}` */
  key: string;
  operationId: string | undefined;
  loc: Loc;
  pathItem: Loc;
}

export function listOperations(side: Resolver): OperationRef[] {
  const paths = child({ node: side.document, pointer: "" }, "paths");
  if (!isObj(paths.node)) return [];
  const ops: OperationRef[] = [];
  for (const path of Object.keys(paths.node)) {
    const pathItem = side.resolve(child(paths, path));
    if (!isObj(pathItem.node)) continue;
    for (const method of METHODS) {
      const loc = child(pathItem, method);
      if (!isObj(loc.node)) continue;
      ops.push({
        label: `${method.toUpperCase()} ${path}`,
        method,
        path,
        key: `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`,
        operationId: typeof loc.node.operationId === "string" ? loc.node.operationId : undefined,
        loc,
        pathItem,
      });
    }
  }
  return ops;
}

export interface OperationPair {
  base: OperationRef;
  revision: OperationRef;
}

/** Pairs the operations; reports those added, removed and moved. */
export function matchOperations(base: OperationRef[], revision: OperationRef[], out: ChangeCollector): OperationPair[] {
  const pairs: OperationPair[] = [];
  const revByKey = new Map(revision.map((o) => [o.key, o]));
  const leftB: OperationRef[] = [];
  const matched = new Set<OperationRef>();
  for (const b of base) {
    const r = revByKey.get(b.key);
    if (r) {
      pairs.push({ base: b, revision: r });
      matched.add(r);
    } else leftB.push(b);
  }
  const leftR = revision.filter((r) => !matched.has(r));
  for (const b of [...leftB]) {
    const r = b.operationId && leftR.find((x) => x.operationId === b.operationId);
    if (!r) continue;
    out.add(
      "operation-moved",
      `a client calling ${b.label} now gets 404: ${b.operationId} moved to ${r.label}`,
      b.loc.pointer,
      r.loc.pointer,
      b.label,
    );
    pairs.push({ base: b, revision: r });
    leftB.splice(leftB.indexOf(b), 1);
    leftR.splice(leftR.indexOf(r), 1);
  }
  const pathKey = (o: OperationRef) => o.key.slice(o.key.indexOf(" ") + 1);
  const revPaths = new Set(revision.map(pathKey));
  const basePaths = new Set(base.map(pathKey));
  const removedPaths = new Map<string, OperationRef[]>();
  for (const b of leftB) {
    if (revPaths.has(pathKey(b))) {
      const parent = revision.find((r) => pathKey(r) === pathKey(b)) as OperationRef;
      out.add(
        "operation-removed",
        `a client calling ${b.label} now gets 404 or 405`,
        b.loc.pointer,
        parent.pathItem.pointer,
        b.label,
      );
    } else removedPaths.set(b.path, [...(removedPaths.get(b.path) ?? []), b]);
  }
  for (const ops of removedPaths.values()) {
    const labels = ops.map((o) => o.label).join(", ");
    for (const o of ops)
      out.add("path-removed", `a client calling ${labels} now gets 404`, o.pathItem.pointer, "/paths", o.label);
  }
  for (const r of leftR) {
    if (basePaths.has(pathKey(r))) {
      const parent = base.find((b) => pathKey(b) === pathKey(r)) as OperationRef;
      out.add("operation-added", `clients may now call ${r.label}`, parent.pathItem.pointer, r.loc.pointer, r.label);
    } else out.add("path-added", `clients may now call ${r.path}`, "/paths", r.pathItem.pointer, r.label);
  }
  for (const { base: b, revision: r } of pairs) {
    if (b.operationId !== r.operationId && b.key === r.key) {
      out.add(
        "operation-id-changed",
        `${r.label} is now operationId ${r.operationId ?? "(none)"}, not ${b.operationId ?? "(none)"}: generated clients rename the method`,
        b.loc.pointer,
        r.loc.pointer,
        r.label,
      );
    }
  }
  return pairs;
}

interface Param {
  loc: Loc;
  name: string;
  in: string;
  required: boolean;
}

/** Path-level parameters with the operation's over them; path parameters keyed by position, names aside. */
function parametersOf(side: Resolver, op: OperationRef): Map<string, Param> {
  const out = new Map<string, Param>();
  const slots = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const owner of [op.pathItem, op.loc]) {
    const list = child(owner, "parameters");
    if (!Array.isArray(list.node)) continue;
    for (let i = 0; i < list.node.length; i++) {
      const loc = side.resolve(child(list, i));
      if (!isObj(loc.node)) continue;
      const where = String(loc.node.in);
      const name = String(loc.node.name);
      const key =
        where === "path"
          ? `path:${slots.indexOf(name)}`
          : where === "header"
            ? `header:${name.toLowerCase()}`
            : `${where}:${name}`;
      out.set(key, { loc, name, in: where, required: where === "path" || loc.node.required === true });
    }
  }
  return out;
}

const contentOf = (side: Resolver, owner: Loc): Map<string, Loc> => {
  const content = child(owner, "content");
  const out = new Map<string, Loc>();
  if (!isObj(content.node)) return out;
  // media types compare without parameters and case: `application/json; charset=utf-8` is `application/json`
  for (const type of Object.keys(content.node))
    out.set(type.split(";")[0].trim().toLowerCase(), side.resolve(child(content, type)));
  return out;
};

const BYTES_KEYWORDS = new Set(["type", "format", "contentEncoding", "contentMediaType"]);

/**
 * A schema that only says "the body is the bytes of its media type": OpenAPI 3.0's `type: string, format: binary`,
 * 3.1's `contentMediaType`/`contentEncoding` (annotations in JSON Schema 2020-12), or no schema. Two of them under
 * the same non-JSON media type say the same thing, however each is written.
 */
function bytesBody(side: Resolver, media: Loc, type: string): boolean {
  if (type === "application/json" || type.endsWith("+json")) return false;
  const schema = side.resolve(child(media, "schema"));
  if (schema.node === undefined || schema.node === true) return true;
  if (!isObj(schema.node)) return false;
  const s = schema.node;
  const restricting = Object.keys(s).filter((k) => !k.startsWith("x-") && !ANNOTATIONS.has(k));
  return (
    restricting.every((k) => BYTES_KEYWORDS.has(k)) &&
    (s.type === undefined || s.type === "string") &&
    (s.format === undefined || s.format === "binary") &&
    (s.contentEncoding === undefined || s.contentEncoding === "binary") &&
    (s.contentMediaType === undefined || s.contentMediaType === type)
  );
}

export function compareOperation(pair: OperationPair, sides: OperationSides): void {
  const { base: b, revision: r } = pair;
  const out = sides.out;
  const op = r.label;
  const visited = new Set<string>();
  const scope: ScopeOf = (dir, rootName, field = "", bodyRoot = false) => ({
    dir,
    operation: op,
    field,
    bodyRoot,
    rootName,
    visited,
  });

  // parameters
  const bp = parametersOf(sides.base, b);
  const rp = parametersOf(sides.revision, r);
  for (const [key, p] of bp) {
    const q = rp.get(key);
    const label = `${p.in} parameter \`${p.name}\``;
    if (!q) {
      out.add(
        "request-parameter-removed",
        `a client sending the ${label} has it ignored or refused`,
        p.loc.pointer,
        r.loc.pointer,
        op,
      );
      continue;
    }
    if (!p.required && q.required)
      out.add(
        "request-parameter-became-required",
        `a client that does not send the ${label} is now refused`,
        p.loc.pointer,
        q.loc.pointer,
        op,
      );
    if (p.required && !q.required)
      out.add(
        "request-parameter-became-optional",
        `clients may now leave the ${label} out`,
        p.loc.pointer,
        q.loc.pointer,
        op,
      );
    compareSchemas(child(p.loc, "schema"), child(q.loc, "schema"), scope("request", label, p.name), sides);
  }
  for (const [key, q] of rp) {
    if (bp.has(key)) continue;
    const label = `${q.in} parameter \`${q.name}\``;
    if (q.required)
      out.add(
        "request-required-parameter-added",
        `a client that does not send the ${label} is now refused`,
        b.loc.pointer,
        q.loc.pointer,
        op,
      );
    else out.add("request-parameter-added", `clients may now send the ${label}`, b.loc.pointer, q.loc.pointer, op);
  }

  // request body
  const bb = sides.base.resolve(child(b.loc, "requestBody"));
  const rb = sides.revision.resolve(child(r.loc, "requestBody"));
  const bBody = isObj(bb.node);
  const rBody = isObj(rb.node);
  const bRequired = bBody && (bb.node as Obj).required === true;
  const rRequired = rBody && (rb.node as Obj).required === true;
  if (bBody && !rBody)
    out.add(
      "request-body-removed",
      `a client sending a body to ${op} has it ignored or refused`,
      bb.pointer,
      r.loc.pointer,
      op,
    );
  if (!bBody && rBody) {
    if (rRequired)
      out.add(
        "request-required-body-added",
        `a client calling ${op} without a body is now refused`,
        b.loc.pointer,
        rb.pointer,
        op,
      );
    else out.add("request-body-added", `clients may now send a body to ${op}`, b.loc.pointer, rb.pointer, op);
  }
  if (bBody && rBody) {
    if (!bRequired && rRequired)
      out.add(
        "request-body-became-required",
        `a client calling ${op} without a body is now refused`,
        bb.pointer,
        rb.pointer,
        op,
      );
    if (bRequired && !rRequired)
      out.add("request-body-became-optional", `clients may now call ${op} without a body`, bb.pointer, rb.pointer, op);
    const bc = contentOf(sides.base, bb);
    const rc = contentOf(sides.revision, rb);
    for (const [type, media] of bc) {
      const other = rc.get(type);
      if (!other) {
        out.add(
          "request-media-type-removed",
          `a client sending ${type} is now refused`,
          media.pointer,
          child(rb, "content").pointer,
          op,
        );
        continue;
      }
      if (bytesBody(sides.base, media, type) && bytesBody(sides.revision, other, type)) continue;
      compareSchemas(
        child(media, "schema"),
        child(other, "schema"),
        scope("request", "the request body", "", true),
        sides,
      );
    }
    for (const [type, media] of rc) {
      if (!bc.has(type))
        out.add(
          "request-media-type-added",
          `clients may now send ${type}`,
          child(bb, "content").pointer,
          media.pointer,
          op,
        );
    }
  }

  // responses
  const bResponses = child(b.loc, "responses");
  const rResponses = child(r.loc, "responses");
  const codes = (l: Loc) => (isObj(l.node) ? Object.keys(l.node) : []);
  const success = (code: string) => /^2/.test(code);
  for (const code of codes(bResponses)) {
    const br = sides.base.resolve(child(bResponses, code));
    if (!codes(rResponses).includes(code)) {
      if (success(code))
        out.add(
          "response-success-status-removed",
          `a client expecting ${code} from ${op} gets another status now`,
          br.pointer,
          rResponses.pointer,
          op,
        );
      else
        out.add("response-error-status-removed", `${op} no longer answers ${code}`, br.pointer, rResponses.pointer, op);
      continue;
    }
    compareResponse(code, br, sides.revision.resolve(child(rResponses, code)), op, sides, scope);
  }
  for (const code of codes(rResponses)) {
    if (codes(bResponses).includes(code)) continue;
    const rr = child(rResponses, code);
    if (success(code))
      out.add(
        "response-success-status-added",
        `a client of ${op} may now get ${code}, which it was not told of`,
        bResponses.pointer,
        rr.pointer,
        op,
      );
    else
      out.add(
        "response-error-status-added",
        `a client of ${op} may now get ${code}, which it was not told of`,
        bResponses.pointer,
        rr.pointer,
        op,
      );
  }
}

function compareResponse(code: string, br: Loc, rr: Loc, op: string, sides: OperationSides, scope: ScopeOf): void {
  const out = sides.out;
  const headers = (side: Resolver, l: Loc) => {
    const h = child(l, "headers");
    const map = new Map<string, Loc>();
    if (isObj(h.node))
      for (const name of Object.keys(h.node)) map.set(name.toLowerCase(), side.resolve(child(h, name)));
    return map;
  };
  const bh = headers(sides.base, br);
  const rh = headers(sides.revision, rr);
  for (const [name, h] of bh) {
    const other = rh.get(name);
    const required = (h.node as Obj).required === true;
    if (!other) {
      if (required)
        out.add(
          "response-required-header-removed",
          `a client reading the ${name} header of ${code} no longer gets it`,
          h.pointer,
          child(rr, "headers").pointer,
          op,
        );
      else
        out.add(
          "response-optional-header-removed",
          `a client reading the ${name} header of ${code} never gets it now`,
          h.pointer,
          child(rr, "headers").pointer,
          op,
        );
      continue;
    }
    if (required && (other.node as Obj).required !== true)
      out.add(
        "response-header-became-optional",
        `a client reading the ${name} header of ${code} may now find it absent`,
        h.pointer,
        other.pointer,
        op,
      );
    compareSchemas(
      child(h, "schema"),
      child(other, "schema"),
      scope("response", `the ${name} header of ${code}`),
      sides,
    );
  }
  for (const [name, h] of rh) {
    if (!bh.has(name))
      out.add(
        "response-header-added",
        `clients may now read the ${name} header of ${code}`,
        child(br, "headers").pointer,
        h.pointer,
        op,
      );
  }
  const bc = contentOf(sides.base, br);
  const rc = contentOf(sides.revision, rr);
  for (const [type, media] of bc) {
    const other = rc.get(type);
    if (!other) {
      const now = [...rc.keys()].join(", ") || "no body";
      out.add(
        "response-media-type-removed",
        `a client reading ${code} as ${type} now gets ${now}`,
        media.pointer,
        child(rr, "content").pointer,
        op,
      );
      continue;
    }
    if (bytesBody(sides.base, media, type) && bytesBody(sides.revision, other, type)) continue;
    // each status's body compared whole (a schema shared by several statuses is one change naming each of them);
    // an error body is "the body" of the statuses its change names
    const root = /^2/.test(code) ? `the ${code} body` : "the body";
    compareSchemas(
      child(media, "schema"),
      child(other, "schema"),
      { ...scope("response", root), visited: new Set<string>() },
      { ...sides, out: sides.out.forStatus(code) },
    );
  }
  for (const [type, media] of rc) {
    if (!bc.has(type))
      out.add(
        "response-media-type-added",
        `a client of ${op} may now get ${code} as ${type}, which it was not told of`,
        child(br, "content").pointer,
        media.pointer,
        op,
      );
  }
}
