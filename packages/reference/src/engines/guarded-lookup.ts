// The SSRF guard's DNS step (issue 5, "POST /crawl"): the socket connects to the very address that was checked, so
// a host that answers a public address to a check and a private one to the connect (DNS rebinding) gets nowhere.
// It is installed as the `lookup` of every connection the http client opens (undici passes it to net.connect).
import { promises as dns, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { forbiddenReason } from "@plumbline-kit/platform/address-policy";

/** Host name → addresses; injectable so tests can make a public-looking name resolve to 127.0.0.1. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Raised inside the connect step and recognised by the client, which turns it into a PLB_TARGET_FORBIDDEN value. */
export class ForbiddenAddressError extends Error {
  readonly code = "PLB_TARGET_FORBIDDEN";
}

/** Why an address is refused, or null; address-policy.ts by default, replaceable so a test can vouch for one. */
export type AddressPolicy = (address: string) => string | null;

/** The refusal message for `host` resolving to `address`, or null when the address may be fetched. */
export function refusal(host: string, address: string, policy: AddressPolicy = forbiddenReason): string | null {
  const reason = policy(address);
  if (!reason) return null;
  const via = host === address ? "" : ` resolves to ${address}, which`;
  return `The target host ${host}${via} is a ${reason} address; this service fetches public addresses only`;
}

/** An IP-literal host never reaches `lookup` (net.connect skips it), so the client checks literals up front. */
export function literalRefusal(hostname: string, policy?: AddressPolicy): string | null {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return isIP(bare) ? refusal(bare, bare, policy) : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A net.connect `lookup` that refuses the whole host when any of its addresses is forbidden (no policy: none is). */
export function guardedLookup(resolve: Resolver, policy: AddressPolicy | null) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (all) => {
        const wanted = all.filter((a) => !options.family || a.family === options.family);
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          err.code = "ENOTFOUND";
          return callback(err, "");
        }
        if (policy) {
          for (const a of wanted) {
            const why = refusal(hostname, a.address, policy);
            if (why) return callback(new ForbiddenAddressError(why), "");
          }
        }
        if (options.all) return callback(null, wanted);
        callback(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
}

/**
 * The refusal of a host name by the guarded lookup's own rule (every address it resolves to must pass the policy),
 * asked before any connection: POST /deepcrawl refuses such a start URL at submission, uncharged. Null when the
 * host passes, or when it cannot be resolved now (the fetch that follows meets that failure itself).
 */
export function resolvedRefusal(
  hostname: string,
  resolve: Resolver,
  policy: AddressPolicy,
  signal?: AbortSignal,
): Promise<string | null> {
  const lookup = guardedLookup(resolve, policy);
  return new Promise((done) => {
    const stop = () => done(null);
    signal?.addEventListener("abort", stop, { once: true });
    lookup(hostname, { all: true }, (err) => {
      signal?.removeEventListener("abort", stop);
      done(err instanceof ForbiddenAddressError ? err.message : null);
    });
  });
}
