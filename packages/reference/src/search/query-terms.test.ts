// Query text as terms (issue 14 "Relevance": phrase, prefix, words) and the snippets cut around them.
import { describe, expect, it } from "vitest";
import { fts5Match, parseQuery, postgresParts, snippetOf } from "./query-terms.ts";

describe("parseQuery", () => {
  it("reads phrases, prefixes and words; punctuation is never syntax", () => {
    expect(parseQuery('"tide pools" anemo* crab')).toEqual([
      { kind: "phrase", words: ["tide", "pools"] },
      { kind: "prefix", text: "anemo" },
      { kind: "word", text: "crab" },
    ]);
    expect(parseQuery("state-of-the-art")).toEqual([{ kind: "phrase", words: ["state", "of", "the", "art"] }]);
    expect(parseQuery('AND "" * -- (x) "unclosed')).toEqual([
      { kind: "word", text: "AND" },
      { kind: "word", text: "x" },
      { kind: "word", text: "unclosed" },
    ]);
    expect(parseQuery("Fahrräder 東京 café")).toHaveLength(3);
  });

  it("quotes every term for FTS5 and splits prefixes apart for PostgreSQL", () => {
    const terms = parseQuery('AND "a b" c*');
    expect(fts5Match(terms, "all")).toBe('"AND" AND "a b" AND "c"*');
    expect(fts5Match(terms, "any")).toBe('"AND" OR "a b" OR "c"*');
    expect(postgresParts(terms)).toEqual({ websearch: ["AND", '"a b"'], prefixes: ["c"] });
  });
});

describe("snippetOf", () => {
  it("plain text around the first matched word, Markdown marks dropped", () => {
    const md = `# Title\n\n${"filler words here. ".repeat(40)}The **hermit crabs** hide [under rocks](https://x.test).`;
    const s = snippetOf(md, parseQuery("hermit"));
    expect(s).toMatch(/^… .*hermit crabs hide under rocks\.$/);
    expect(s.length).toBeLessThan(260);
    expect(snippetOf("short ![img](a.png) text", [])).toBe("short text");
  });
});
