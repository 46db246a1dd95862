// Which exchanges overlapped another of the same credential: the balance rule (spec/checks/sequences/balance.ts)
// judges two balance reads only when neither overlapped a request of the same credential, since the order of a
// charge and a read in flight together is unknown. Keyed by the Authorization header's value as sent; an entry lives
// while that credential has a request in flight, so the memory is that of the requests in flight.
import type { Exchange } from "./exchange.ts";
import { headerValue } from "./hop-headers.ts";

export interface InFlight {
  /** a request arrived: it and every request of its credential in flight now are concurrent */
  start(exchange: Exchange): void;
  /** its exchange finished (answered, refused, or failed) */
  end(exchange: Exchange): void;
  /** credentials with a request in flight */
  size(): number;
}

export function createInFlight(): InFlight {
  const byCredential = new Map<string, Set<Exchange>>();
  const keyOf = (ex: Exchange) => headerValue(ex.request.headers, "authorization") ?? "";
  return {
    start(ex) {
      const key = keyOf(ex);
      let set = byCredential.get(key);
      if (!set) {
        set = new Set();
        byCredential.set(key, set);
      }
      ex.concurrent = set.size > 0;
      for (const other of set) other.concurrent = true;
      set.add(ex);
    },
    end(ex) {
      const key = keyOf(ex);
      const set = byCredential.get(key);
      if (!set?.delete(ex)) return;
      if (set.size === 0) byCredential.delete(key);
    },
    size: () => byCredential.size,
  };
}
