// A JSON form of a value whose objects may be shared or cyclic, as a dereferenced OpenAPI document's are (each
// `$ref` to a place becomes that same object): each object reached more than once is written once, in `shared`, and
// named by `{"$plumbline-shared": n}` where it occurs, so decoding gives back the same graph, identity included.
// The build stores the bundled documents dereferenced this way (document.ts, tools/build.js), so a command neither
// loads the OpenAPI parser nor dereferences at start.

const MARK = "$plumbline-shared";

export interface EncodedGraph {
  shared: unknown[];
  root: unknown;
}

const isObject = (v: unknown): v is object => v !== null && typeof v === "object";

/** The graph as plain JSON; throws on a value JSON cannot hold and on an object with the marker's key. */
export function encodeGraph(value: unknown): EncodedGraph {
  const seen = new Map<object, number>();
  const count = (v: unknown): void => {
    if (!isObject(v)) return;
    const n = seen.get(v) ?? 0;
    seen.set(v, n + 1);
    if (n > 0) return;
    if (!Array.isArray(v) && Object.hasOwn(v, MARK)) throw new Error(`an object has the key "${MARK}"`);
    for (const child of Object.values(v)) count(child);
  };
  count(value);
  const ids = new Map<object, number>();
  for (const [v, n] of seen) if (n > 1) ids.set(v, ids.size);
  const shared: unknown[] = new Array(ids.size);
  const copy = (v: unknown): unknown => {
    if (!isObject(v)) {
      if (typeof v === "number" && !Number.isFinite(v)) throw new Error(`${v} is not JSON`);
      if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint")
        throw new Error(`a ${typeof v} is not JSON`);
      return v;
    }
    if (Array.isArray(v)) return v.map(ref);
    return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, ref(c)]));
  };
  const ref = (v: unknown): unknown => {
    const id = isObject(v) ? ids.get(v) : undefined;
    return id === undefined ? copy(v) : { [MARK]: id };
  };
  for (const [v, id] of ids) shared[id] = copy(v);
  return { shared, root: ref(value) };
}

/** The graph `encodeGraph` wrote. */
export function decodeGraph(encoded: EncodedGraph): unknown {
  const objects = encoded.shared.map((v) => (Array.isArray(v) ? [] : {})) as Array<Record<string, unknown>>;
  const revive = (v: unknown): unknown => {
    if (!isObject(v)) return v;
    if (!Array.isArray(v) && Object.hasOwn(v, MARK)) return objects[(v as Record<string, number>)[MARK]];
    const out: Record<string, unknown> = Array.isArray(v) ? ([] as unknown as Record<string, unknown>) : {};
    fill(out, v);
    return out;
  };
  const fill = (target: Record<string, unknown>, from: object) => {
    for (const [k, c] of Object.entries(from))
      if (k === "__proto__")
        Object.defineProperty(target, k, { value: revive(c), enumerable: true, writable: true, configurable: true });
      else target[k] = revive(c);
  };
  for (const [i, v] of encoded.shared.entries()) fill(objects[i], v as object);
  return revive(encoded.root);
}
