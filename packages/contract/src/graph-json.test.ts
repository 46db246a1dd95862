import { describe, expect, it } from "vitest";
import { decodeGraph, encodeGraph } from "./graph-json.ts";

const roundTrip = (v: unknown) => decodeGraph(JSON.parse(JSON.stringify(encodeGraph(v))));

describe("graph-json", () => {
  it("gives back plain JSON as it was", () => {
    const v = { a: [1, "two", null, true, { b: [] }], c: {}, "": 0 };
    expect(roundTrip(v)).toEqual(v);
    expect(roundTrip([1, [2]])).toEqual([1, [2]]);
    expect(roundTrip("text")).toBe("text");
  });

  it("keeps an object reached from two places one object, and a cycle a cycle", () => {
    const shared: Record<string, unknown> = { type: "string" };
    const node: Record<string, unknown> = { name: "node" };
    node.self = node;
    node.children = [node, shared];
    const back = roundTrip({ x: shared, y: shared, list: [shared], node }) as Record<string, unknown>;
    expect(back.x).toEqual({ type: "string" });
    expect(back.x).toBe(back.y);
    expect((back.list as unknown[])[0]).toBe(back.x);
    const n = back.node as Record<string, unknown>;
    expect(n.self).toBe(n);
    expect((n.children as unknown[])[0]).toBe(n);
    expect((n.children as unknown[])[1]).toBe(back.x);
  });

  it("keeps a __proto__ key an own property, and refuses what JSON cannot hold", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}');
    const back = roundTrip(v) as Record<string, unknown>;
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(() => encodeGraph({ n: Number.NaN })).toThrow(/not JSON/);
    expect(() => encodeGraph({ "$plumbline-shared": 1 })).toThrow(/key/);
  });
});
