// The one plural helper of the command lines' output: "1 violation", "2 violations", "1 was measured". A count
// printed beside a noun goes through it, so no command says "1 failures".
// Self-contained: no import outside spec/.

/** "1 check", "2 checks"; `many` when the plural is not the noun plus "s" ("1 entry", "2 entries"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The noun alone, for a count printed elsewhere in the sentence ("3 of 4 thresholds"). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** "was" or "were" as the count requires. */
export function wasWere(n: number): string {
  return n === 1 ? "was" : "were";
}
