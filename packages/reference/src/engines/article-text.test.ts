// The in-place text measures must answer exactly what the string forms they replace answer (issue 12): a rule that
// counts one word more or less removes different blocks. Checked on random fragments over an alphabet of the cases
// that matter: words split across elements, Unicode letters and digits, astral characters, Unicode spaces, <template>.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCRIPT_PIECES } from "../../../../test-support/script-pieces.ts";
import {
  closestTag,
  findElement,
  isLeafBlock,
  linkDensity,
  textLengthOf,
  textOf,
  wordCount,
  wordCountOf,
} from "./article-text.ts";
import { parseDocument } from "./html-document.ts";
import { tagSet } from "./tag-selectors.ts";

const pieces = [
  "word",
  " ",
  "\u00a0",
  "\u3000",
  "\n\t",
  "snake_case",
  ...SCRIPT_PIECES,
  "&amp;",
  "<b>",
  "</b>",
  "<a href=x>",
  "</a>",
  "<p>",
  "</p>",
  "<div>",
  "</div>",
  "<span>",
  "</span>",
  "<template>",
  "</template>",
  "<br>",
  "<!-- c -->",
];
const fragment = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((p) => p.join(""));
const bodyOf = (html: string) => parseDocument(html).body as Element;

describe("article text measures", () => {
  it("count words and letters as the string forms do, on random fragments", () => {
    fc.assert(
      fc.property(fragment, (html) => {
        const body = bodyOf(html);
        for (const el of [body, ...body.querySelectorAll("*")]) {
          expect(wordCountOf(el)).toBe(wordCount(textOf(el)));
          expect(textLengthOf(el)).toBe(textOf(el).length);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("walk elements as querySelectorAll and closest do", () => {
    fc.assert(
      fc.property(fragment, (html) => {
        const body = bodyOf(html);
        const seen: Element[] = [];
        findElement(body, (el) => {
          seen.push(el);
        });
        expect(seen).toEqual([...body.querySelectorAll("*")]);
        for (const el of body.querySelectorAll("*"))
          expect(closestTag(el, tagSet("div, p"))).toBe(el.closest("div, p"));
      }),
      { numRuns: 400 },
    );
  });

  it("reads a word split across inline elements as one, and links as a share of the letters", () => {
    const p = bodyOf("<p>Hel<b>lo</b> <a href=/x>wor</a>ld 😀 𝒜𝒷</p>").firstElementChild as Element;
    expect(wordCountOf(p)).toBe(3);
    expect(linkDensity(p)).toBeCloseTo(3 / textOf(p).length);
    expect(isLeafBlock(p)).toBe(true);
    expect(isLeafBlock(bodyOf("<div><p>x</p></div>").firstElementChild as Element)).toBe(false);
  });
});
