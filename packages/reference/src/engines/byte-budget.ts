// One render's byte budget across every request its page makes (issue 12 "Browser fallback": each fetch is capped,
// the sum must be too). The http client takes from it chunk by chunk while a body streams in, so concurrent
// subresources cannot overrun it between them.
export interface ByteBudget {
  /** records `bytes` read; false once the total passes the limit (the read then stops) */
  take(bytes: number): boolean;
  /** bytes taken so far */
  readonly used: number;
  readonly limit: number;
  readonly exhausted: boolean;
}

export function createByteBudget(limit: number): ByteBudget {
  let used = 0;
  return {
    take(bytes) {
      used += bytes;
      return used <= limit;
    },
    get used() {
      return used;
    },
    limit,
    get exhausted() {
      return used >= limit;
    },
  };
}
