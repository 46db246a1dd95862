/** "1 check", "2 checks"; `many` when the plural is not the noun plus "s" ("1 entry", "2 entries"). */
export declare function plural(n: number, one: string, many?: string): string;
/** The noun alone, for a count printed elsewhere in the sentence ("3 of 4 thresholds"). */
export declare function noun(n: number, one: string, many?: string): string;
/** "was" or "were" as the count requires. */
export declare function wasWere(n: number): string;
