import { describe, expect, it } from "vitest";
import { createRng } from "./rng.ts";
import { stringForPattern } from "./schema-pattern.ts";

describe("stringForPattern", () => {
  const supported = [
    "^[a-z]+$",
    "^\\d{3}-\\d{2}-\\d{4}$",
    "^(foo|bar)baz?$",
    "^[A-Z][a-z]{2,5}( [A-Z][a-z]+)*$",
    "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$",
    "^(?<year>\\d{4})-(?:0[1-9]|1[0-2])$",
    "colou?r",
    "^[\\w.-]+$",
    "^\\$\\d+\\.\\d{2}$",
    "^[-+]?[0-9]*\\.?[0-9]+$",
  ];
  it.each(supported)("matches %s", (pattern) => {
    for (let seed = 0; seed < 20; seed++) {
      const s = stringForPattern(pattern, createRng(seed, pattern));
      expect(s).not.toBeNull();
      expect(new RegExp(pattern, "u").test(s ?? "")).toBe(true);
    }
  });

  it.each(["^(?=a)b$", "(a)\\1", "\\bword\\b", "[", "^\\p{L}+$"])("refuses %s", (pattern) => {
    expect(stringForPattern(pattern, createRng(1))).toBeNull();
  });
});
