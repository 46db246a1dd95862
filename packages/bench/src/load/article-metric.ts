// The article-extraction benchmark's metric (Scrapinghub/Zyte's article-extraction-benchmark, as its README and
// ../shared/bench/article-extraction/README.md state it): tokens are runs of Unicode letters, digits and `_`; each
// text is the multiset of its 4-token shingles (a text of 1 to 3 tokens is one shingle of all of them, as the
// benchmark's own code does); per page, true positives are the shingles in both by multiplicity. Precision and
// recall are computed per page and averaged over pages (macro), F1 is the harmonic mean of the two averages.

export interface PageScore {
  precision: number;
  recall: number;
  f1: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface Figures {
  f1: number;
  precision: number;
  recall: number;
  pages: number;
}

const TOKEN = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function shingles(text: string, n = SHINGLE): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  if (tokens.length === 0) return counts;
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) {
    const s = tokens.slice(i, i + n).join(" ");
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return counts;
}

const harmonic = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

/** One page: the extracted text against the annotated article body. */
export function scorePage(extracted: string, truth: string): PageScore {
  const got = shingles(extracted);
  const want = shingles(truth);
  let tp = 0;
  let fp = 0;
  for (const [s, n] of got) {
    const m = Math.min(n, want.get(s) ?? 0);
    tp += m;
    fp += n - m;
  }
  let wanted = 0;
  for (const n of want.values()) wanted += n;
  const fn = wanted - tp;
  // nothing to find and nothing found is a perfect page; nothing right is 0 both ways (the benchmark's rule)
  let precision = 1;
  let recall = 1;
  if (fp > 0 || fn > 0) {
    precision = tp === 0 ? 0 : tp / (tp + fp);
    recall = tp === 0 ? 0 : tp / (tp + fn);
  }
  return {
    precision,
    recall,
    f1: harmonic(precision, recall),
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
  };
}

/** Macro averages over pages; F1 of the averages (not the average of per-page F1). */
export function aggregate(scores: ReadonlyArray<Pick<PageScore, "precision" | "recall">>): Figures {
  const pages = scores.length;
  if (pages === 0) return { f1: 0, precision: 0, recall: 0, pages };
  const precision = scores.reduce((s, p) => s + p.precision, 0) / pages;
  const recall = scores.reduce((s, p) => s + p.recall, 0) / pages;
  return { f1: harmonic(precision, recall), precision, recall, pages };
}

// a link destination: <in angle brackets>, or no spaces with parentheses balanced one level deep; an optional "title"
const DESTINATION = String.raw`\(\s*(?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)`;
const LABEL = String.raw`\[((?:\\.|[^\]\\])*)\]`;
const IMAGE = new RegExp(`!${LABEL}${DESTINATION}`, "g");
const LINK = new RegExp(`${LABEL}${DESTINATION}`, "g");
const TAG = /<\/?[A-Za-z][^<>]*>/g;

/**
 * How `/crawl` content is scored: every image `![alt](src)` and link `[text](href)` becomes its alt or link text
 * (images first, so a linked image becomes its alt text), HTML tags are dropped; nothing else is removed.
 */
export function markdownToText(markdown: string): string {
  let text = markdown.replace(IMAGE, "$1");
  // a link's text may itself hold a link after images are gone ([[a](x)](y) is not Markdown, but be safe)
  for (let i = 0; i < 3; i++) {
    const next = text.replace(LINK, "$1");
    if (next === text) break;
    text = next;
  }
  return text.replace(TAG, "");
}
