// metadata.word_count (D-crawl-metadata), counted the same way by the mock and the reference: words as a reader
// counts them, i.e. white-space-separated tokens that hold a letter or a digit, so Markdown marks (`#`, `-`, `>`)
// are not words and a link counts once. What `text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length`
// answers, without building the tokens: that split allocated a third of what a crawl allocated on the reference's
// event loop (a sampling heap profile under `bench crawl-load`), and the collection of it paused /usage (issue 12).

/** What /\s/ matches, one entry per UTF-16 unit: ASCII and Unicode white space, line terminators, the BOM. */
export const SPACE_UNIT = new Uint8Array(0x10000);
for (const c of "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") SPACE_UNIT[c.charCodeAt(0)] = 1;
for (let c = 0x2000; c <= 0x200a; c++) SPACE_UNIT[c] = 1;

// [\p{L}\p{N}] per UTF-16 unit below 0x10000, filled as characters are met (0 unknown, 1 yes, 2 no)
const LETTER_OR_DIGIT_UNIT = new Uint8Array(0x10000);
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

function isLetterOrDigit(cp: number): boolean {
  if (cp < 128) return (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57);
  if (cp >= 0x10000) return LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
  let k = LETTER_OR_DIGIT_UNIT[cp];
  if (k === 0) LETTER_OR_DIGIT_UNIT[cp] = k = LETTER_OR_DIGIT.test(String.fromCharCode(cp)) ? 1 : 2;
  return k === 1;
}

export function countWords(text: string): number {
  let words = 0;
  // inside a token, and whether it has been counted already
  let inToken = false;
  let counted = false;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (SPACE_UNIT[cp] === 1) {
      inToken = false;
      continue;
    }
    if (!inToken) {
      inToken = true;
      counted = false;
    }
    if (counted) continue;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (isLetterOrDigit(cp)) {
      words++;
      counted = true;
    }
  }
  return words;
}
