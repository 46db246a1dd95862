// "Nothing outside spec/ holds a hand-written copy of a schema, bound or enum" (issue 2): a guard that fails when a
// source file outside spec/ spells out a list (an array literal or a union type) of three or more values of one
// of the document's enums. Naming one state or format in behaviour (`return "queued"`) is not a copy.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readRawDocument } from "./document.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CONTRACT = fileURLToPath(new URL(".", import.meta.url)).replace(/\/$/, "");
// examples/ is a client's own code, written as a client team writes it (standalone, naming the states it handles)
const SKIP = new Set(["node_modules", "reports", ".git", "dist", ".build", "examples"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name) || path === CONTRACT) return [];
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
      // runs of quoted strings separated only by commas or bars: array literals and union types
      for (const run of text.match(/(?:"[^"\n]*"\s*[|,]\s*){2,}"[^"\n]*"/g) ?? []) {
        const values = new Set([...run.matchAll(/"([^"\n]*)"/g)].map((m) => m[1]));
        for (const list of lists) {
          const copied = list.filter((v) => values.has(v));
          if (copied.length >= 3) offenders.push(`${relative(ROOT, file)}: ${copied.join(", ")}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
