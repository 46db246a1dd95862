// createPayingFetch(): a fetch that answers a 402 Payment challenge by paying and retrying, built on the
// Payment scheme's SDK client (mppx/client). Client code: it imports spec/ only, never the mock or the reference.
// The test method pays a plumbline mock or reference started with the same test key (D-payment-methods); the
// production methods are the SDK's own (Tempo with a viem account, Stripe with a shared-payment-token factory).
import type { Account, stripe } from "@plumbline-kit/contract/vendor/mppx-client";

interface Common {
  /** the fetch to wrap (default: the global fetch) */
  fetch?: typeof globalThis.fetch;
  /** how many challenges one call may answer (default 1: a refused credential is returned, not paid again) */
  maxPaymentRetries?: number;
}

export type PayingFetchOptions = Common &
  (
    | { method: "test"; key: string }
    | { method: "tempo"; account: Account }
    | {
        method: "stripe";
        /** creates a Stripe shared payment token for a challenge (mppx's `stripe.charge({ createToken })`) */
        createToken: Parameters<typeof stripe.charge>[0]["createToken"];
        paymentMethod?: string;
      }
  );

async function methodOf(o: PayingFetchOptions) {
  const { stripe, tempo } = await import("@plumbline-kit/contract/vendor/mppx-client");
  switch (o.method) {
    case "test":
      return (await import("@plumbline-kit/contract/payment-test-method")).testClientMethod(o.key);
    case "tempo":
      return tempo.charge({ account: o.account });
    case "stripe":
      return stripe.charge({ createToken: o.createToken, paymentMethod: o.paymentMethod });
    default:
      throw new Error(`createPayingFetch: unknown method "${(o as { method: string }).method}"`);
  }
}

/** A fetch with the signature of the global one that pays 402 Payment challenges with the chosen method. */
export function createPayingFetch(options: PayingFetchOptions): typeof globalThis.fetch {
  if (options.method === "test" && !options.key)
    throw new Error('createPayingFetch({ method: "test" }) needs the key the server was given');
  // the SDK is loaded on the first call, not when the package is imported (it pulls in viem)
  let paying: Promise<typeof globalThis.fetch> | undefined;
  const load = async () => {
    const { Mppx } = await import("@plumbline-kit/contract/vendor/mppx-client");
    const mppx = Mppx.create({
      methods: [await methodOf(options)],
      fetch: options.fetch ?? globalThis.fetch,
      maxPaymentRetries: options.maxPaymentRetries ?? 1,
      polyfill: false,
    });
    return mppx.fetch as typeof globalThis.fetch;
  };
  return async (input, init) => {
    paying ??= load();
    return (await paying)(input, init);
  };
}
