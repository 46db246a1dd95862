// "Nothing outside spec/ holds a hand-written copy of a schema, bound or enum" (issue 2): a guard that fails when a
// source file outside spec/ spells out three or more values of one of the document's enums.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readRawDocument } from "./document.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP = new Set(["node_modules", "spec", "reports", ".git"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name)) return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

function enums(node: unknown, out: string[][] = []): string[][] {
  if (node && typeof node === "object") {
    const e = (node as { enum?: unknown[] }).enum;
    if (Array.isArray(e) && e.length >= 3)
      out.push(e.filter((v): v is string => typeof v === "string" && v.length > 2));
    for (const v of Object.values(node)) enums(v, out);
  }
  return out;
}

describe("single source of truth", () => {
  it("no source file outside spec/ re-types an enum of the document", () => {
    const lists = enums(readRawDocument());
    const offenders: string[] = [];
    for (const file of sources(ROOT)) {
      const text = readFileSync(file, "utf8");
      for (const list of lists) {
        const quoted = list.filter((v) => text.includes(`"${v}"`));
        if (quoted.length >= 3) offenders.push(`${relative(ROOT, file)}: ${quoted.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
