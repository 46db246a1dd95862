// Whether decoded text is really text (issue 12: binary bytes served as text/html, or a charset the bytes do not
// decode under, came back as 200 with garbage). Decoding turns such bytes into U+FFFD and control characters; past
// a small share of the sample the body is unreadable, and D-target-refusal refuses it as it refuses binary types.

const SAMPLE = 65_536;
/** The share of suspicious characters above which a body is not text (a real page with a few bad bytes stays). */
const MAX_SHARE = 0.05;

export function unreadableText(text: string): boolean {
  const n = Math.min(text.length, SAMPLE);
  if (n === 0) return false;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // C0 controls other than tab, line feed, form feed and carriage return; the replacement character
    if ((c < 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) || c === 0xfffd) bad++;
  }
  return bad / n > MAX_SHARE;
}
