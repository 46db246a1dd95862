// `$ref`s followed lazily, each node kept with the JSON pointer where it is written: a change inside a component
// points at the component's line, and a schema that refers to itself is compared without unrolling it.
import { pointerTokens, SpecSourceError } from "./spec-source.ts";

export type Obj = Record<string, unknown>;

/** A node of a document and the pointer where it is written. */
export interface Loc {
  node: unknown;
  pointer: string;
  /** the component name when the node was reached through a `$ref` (`#/components/schemas/Name` → Name) */
  refName?: string;
}

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export function child(loc: Loc, ...tokens: Array<string | number>): Loc {
  let node = loc.node;
  let pointer = loc.pointer;
  for (const t of tokens) {
    node = isObj(node) || Array.isArray(node) ? (node as Obj)[t as string] : undefined;
    pointer += `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return { node, pointer };
}

function at(document: Obj, pointer: string): unknown {
  let node: unknown = document;
  for (const t of pointerTokens(pointer)) {
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = (node as Obj)[t];
  }
  return node;
}

export interface Resolver {
  /** Follows `$ref` chains; a node with no `$ref` comes back as it is. */
  resolve(loc: Loc): Loc;
  document: Obj;
}

export function createResolver(document: Obj, label: string): Resolver {
  return {
    document,
    resolve(loc) {
      let current = loc;
      for (let hops = 0; isObj(current.node) && typeof current.node.$ref === "string"; hops++) {
        const ref = current.node.$ref as string;
        if (hops > 64) throw new SpecSourceError(`${label}: $ref chain too long at ${loc.pointer}`);
        if (!ref.startsWith("#")) {
          throw new SpecSourceError(
            `${label}: external $ref "${ref}" at ${current.pointer} (bundle the document into one file first)`,
          );
        }
        const pointer = decodeURIComponent(ref.slice(1));
        const node = at(document, pointer);
        if (node === undefined) throw new SpecSourceError(`${label}: unresolved $ref "${ref}" at ${current.pointer}`);
        const name = pointerTokens(pointer).at(-1);
        current = { node, pointer, refName: name };
      }
      return current;
    },
  };
}
