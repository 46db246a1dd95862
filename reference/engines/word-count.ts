// metadata.word_count (D-crawl-metadata): words as a reader counts them, i.e. whitespace-separated tokens that hold
// a letter or a digit, so Markdown marks (`#`, `-`, `>`) are not words. The mock counts the same way.
export function countWords(text: string): number {
  let n = 0;
  for (const token of text.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(token)) n++;
  return n;
}
