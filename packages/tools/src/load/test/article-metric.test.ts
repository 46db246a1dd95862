// The benchmark's metric on examples worked out by hand (article-metric.ts; ../shared/bench/article-extraction
// README): tokens, 4-token shingles as multisets, per-page precision and recall, macro averages, and the Markdown
// that /crawl returns turned into text.

import { aggregate, markdownToText, scorePage, shingles, tokenize } from "@plumbline-kit/bench/load/article-metric";
import { describe, expect, it } from "vitest";

describe("tokens and shingles", () => {
  it("splits on anything but Unicode letters, digits and _", () => {
    expect(tokenize("Hello, wörld! foo_bar 42—Ünïcode 東京 it's")).toEqual([
      "Hello",
      "wörld",
      "foo_bar",
      "42",
      "Ünïcode",
      "東京",
      "it",
      "s",
    ]);
  });

  it("counts 4-token shingles with their multiplicity; a shorter text is one shingle", () => {
    expect(Object.fromEntries(shingles("a b c d e"))).toEqual({ "a b c d": 1, "b c d e": 1 });
    expect(Object.fromEntries(shingles("x y z w x y z w"))).toEqual({
      "x y z w": 2,
      "y z w x": 1,
      "z w x y": 1,
      "w x y z": 1,
    });
    expect(Object.fromEntries(shingles("a b"))).toEqual({ "a b": 1 });
    expect(shingles("  ... ").size).toBe(0);
  });
});

describe("one page", () => {
  it("one shingle right, one wrong, one missed: precision and recall 1/2", () => {
    expect(scorePage("a b c d e", "a b c d x")).toEqual({
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 1,
    });
  });

  it("counts a repeated shingle once per occurrence in the truth", () => {
    // extracted xyzw ×2, yzwx, zwxy, wxyz; truth xyzw ×1: tp 1, fp 4, fn 0
    expect(scorePage("x y z w x y z w", "x y z w")).toMatchObject({ precision: 0.2, recall: 1 });
  });

  it("ignores case-preserving punctuation and layout, not case", () => {
    expect(scorePage("The quick, brown fox!", "the quick brown fox")).toMatchObject({ precision: 0, recall: 0 });
    expect(scorePage("The quick,\n\nbrown — fox!", "The quick brown fox")).toMatchObject({ precision: 1, recall: 1 });
  });

  it("nothing extracted scores 0 when there was a truth to find, 1 when there was none", () => {
    expect(scorePage("", "some article text here")).toMatchObject({ precision: 0, recall: 0, f1: 0 });
    expect(scorePage("", "")).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });
});

describe("over pages", () => {
  it("averages precision and recall over pages, then takes the harmonic mean of the averages", () => {
    expect(
      aggregate([
        { precision: 1, recall: 0.5 },
        { precision: 0.5, recall: 1 },
      ]),
    ).toEqual({ f1: 0.75, precision: 0.75, recall: 0.75, pages: 2 });
    const r = aggregate([
      { precision: 1, recall: 0.5 },
      { precision: 0, recall: 0 },
    ]);
    expect(r).toMatchObject({ precision: 0.5, recall: 0.25, pages: 2 });
    expect(r.f1).toBeCloseTo((2 * 0.5 * 0.25) / 0.75, 12);
  });
});

describe("Markdown → text, as /crawl content is scored", () => {
  it("keeps an image's alt text and a link's text, drops HTML tags, removes nothing else", () => {
    expect(
      markdownToText(
        '# Title\n\n![a harbour](https://x.example/h.png "The harbour") and [the *quay* plan](https://x.example/(a)b) <b>now</b><br/>\n\n- item',
      ),
    ).toBe("# Title\n\na harbour and the *quay* plan now\n\n- item");
  });

  it("unwraps a linked image to its alt text, and destinations in angle brackets", () => {
    expect(markdownToText("[![Logo](https://x.example/l.png)](https://x.example/)")).toBe("Logo");
    expect(markdownToText("![photo](<https://x.example/a b.jpg>) [text](<https://x.example/a b>)")).toBe("photo text");
  });

  it("leaves text that only looks like Markdown alone", () => {
    expect(markdownToText("a < b and c > d, [not a link] (nor this)")).toBe("a < b and c > d, [not a link] (nor this)");
  });
});
