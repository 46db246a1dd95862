// A user's query as terms both stores understand: "a phrase", prefix* and plain words. Everything else in the query
// is text, never syntax: a query can never be an FTS5 or tsquery syntax error (issue 14 "Relevance").

export type QueryTerm = { kind: "word" | "prefix"; text: string } | { kind: "phrase"; words: string[] };

/** é → e, ü → u (Latin, Greek and Cyrillic accents; marks that are letters of their script, as in Hindi, stay). */
export function foldDiacritics(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC");
}

/** Runs of letters and digits (any script); what both tokenizers treat as a word. */
export function wordsOf(text: string): string[] {
  return text.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

export function parseQuery(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    if (m[1] !== undefined) {
      const words = wordsOf(m[1]);
      if (words.length > 1) terms.push({ kind: "phrase", words });
      else if (words.length === 1) terms.push({ kind: "word", text: words[0] });
      continue;
    }
    const token = m[2];
    const words = wordsOf(token);
    if (words.length === 0) continue;
    // `word*`: a prefix; `state-of-the-art`: the words as a phrase, as a tokenizer splits them
    if (words.length === 1 && /[\p{L}\p{N}]\*+$/u.test(token)) terms.push({ kind: "prefix", text: words[0] });
    else if (words.length === 1) terms.push({ kind: "word", text: words[0] });
    else terms.push({ kind: "phrase", words });
  }
  return terms.slice(0, 32);
}

/** FTS5 MATCH text: each term quoted (no operator can leak in), all terms (AND) or any (OR). */
export function fts5Match(terms: QueryTerm[], mode: "all" | "any"): string {
  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const parts = terms.map((t) =>
    t.kind === "phrase" ? q(t.words.join(" ")) : t.kind === "prefix" ? `${q(t.text)}*` : q(t.text),
  );
  return parts.join(mode === "all" ? " AND " : " OR ");
}

/** The query text for PostgreSQL's websearch_to_tsquery (phrases and words) and the prefixes apart. */
export function postgresParts(terms: QueryTerm[]): { websearch: string[]; prefixes: string[] } {
  const websearch: string[] = [];
  const prefixes: string[] = [];
  for (const t of terms) {
    if (t.kind === "phrase") websearch.push(`"${t.words.join(" ")}"`);
    else if (t.kind === "prefix") prefixes.push(t.text);
    else websearch.push(t.text);
  }
  return { websearch, prefixes };
}

/** A snippet: the first stretch of text around a query word, Markdown marks dropped, about `size` characters. */
export function snippetOf(markdown: string, terms: QueryTerm[], size = 240): string {
  const text = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`|~]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= size) return text;
  const lower = text.toLowerCase();
  const needles = terms.flatMap((t) => (t.kind === "phrase" ? [t.words.join(" "), t.words[0]] : [t.text]));
  let at = -1;
  for (const n of needles) {
    const i = lower.indexOf(n.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = at < 0 ? 0 : Math.max(0, text.lastIndexOf(" ", Math.max(0, at - size / 3)) + 1);
  const cut = text.slice(start, start + size);
  const end = cut.lastIndexOf(" ") > size / 2 ? cut.slice(0, cut.lastIndexOf(" ")) : cut;
  return `${start > 0 ? "… " : ""}${end}${start + end.length < text.length ? " …" : ""}`;
}

/**
 * Every term must match; a query that matches nothing that way falls back to any term, for every page of results
 * alike (page 2 of a fallback answer is the fallback's page 2).
 */
export async function allElseAny<H>(
  termCount: number,
  run: (mode: "all" | "any", limit: number, offset: number) => Promise<H[]>,
  limit: number,
  offset: number,
): Promise<H[]> {
  const all = await run("all", limit, offset);
  if (all.length > 0 || termCount < 2) return all;
  if (offset > 0 && (await run("all", 1, 0)).length > 0) return [];
  return run("any", limit, offset);
}
