// countWords must answer what the split it replaces answers (D-crawl-metadata): the mock and the reference report
// metadata.word_count from it, and a client comparing the two would see any difference.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCRIPT_PIECES } from "../../../test-support/script-pieces.ts";
import { countWords, SPACE_UNIT } from "./word-count.ts";

const bySplit = (text: string) => text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length;

// the cases that matter: ASCII and Unicode spaces, Markdown marks, letters and digits of several scripts, astral
// letters and emoji (surrogate pairs), lone surrogates, underscores (not a letter)
const pieces = [
  "word",
  " ",
  "  ",
  "\n\t",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "\u200b",
  "#",
  "-",
  ">",
  "**",
  "_",
  "[x](y)",
  ...SCRIPT_PIECES,
  "\ud835",
  "\udc9c",
  "½",
  "Ⅻ",
];

describe("countWords", () => {
  it("counts tokens that hold a letter or a digit", () => {
    expect(countWords("# Title\n\n- one\n- two 3 — end")).toBe(5);
    expect(countWords("")).toBe(0);
    expect(countWords("  \n ")).toBe(0);
    expect(countWords("[a link](https://x.test/y) counts once")).toBe(4);
    expect(countWords("𝒜𝒷 😀 ½")).toBe(2);
  });

  it("answers what split(/\\s+/) and a letter-or-digit test answer, on random text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(countWords(text)).toBe(bySplit(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        expect(countWords(text)).toBe(bySplit(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("holds /\\s/ exactly in its table of white space", () => {
    const wrong: string[] = [];
    for (let c = 0; c < 0x10000; c++)
      if ((SPACE_UNIT[c] === 1) !== /\s/.test(String.fromCharCode(c))) wrong.push(`U+${c.toString(16)}`);
    expect(wrong).toEqual([]);
  });
});
