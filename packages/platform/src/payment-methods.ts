// The payment methods a deployment accepts (D-payment-methods): configured, never hard-coded. The local test
// method (spec/payment-test-method.ts) verifies a credential signed with the operator's test key; the SDK's
// production methods (Tempo stablecoin, Stripe) are wired from configuration. Those two settle against networks
// this project cannot reach offline: only their configuration is tested here.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { testCharge, testSignature } from "@plumbline-kit/contract/payment-test-method";
import { Errors, Method, Receipt } from "@plumbline-kit/contract/vendor/mppx";
import type { PaymentStore } from "./payment-store.ts";

export type PaymentMethodConfig =
  | { method: "test"; key: string }
  | { method: "tempo"; currency: `0x${string}`; recipient: `0x${string}`; testnet?: boolean }
  | { method: "stripe"; secretKey: string; networkId: string; paymentMethodTypes: string[]; decimals?: number };

/** A credential presented a second time (single use, D-payment-challenge). */
export class ReplayedCredentialError extends Errors.InvalidChallengeError {
  constructor(id: string) {
    super({ id, reason: "this credential was already used" });
  }
}

export interface ConfiguredMethod {
  name: string;
  server: Method.AnyServer;
  /** true when verifying the credential moves the money (no later capture): a failed call's payment is owed back */
  settlesOnVerify: boolean;
  /** the route options of one call's challenge */
  requestFor(amount: string, currency: string, recipient: string): Record<string, unknown>;
}

function testServer(key: string, store: PaymentStore): Method.AnyServer {
  return Method.toServer(testCharge, {
    async verify({ credential }) {
      const expected = Buffer.from(testSignature(key, credential.challenge));
      const given = Buffer.from(credential.payload.signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new Errors.VerificationFailedError({ reason: "the signature does not match the test key" });
      }
      const expiresAtMs = Date.parse(credential.challenge.expires ?? "") || Date.now() + 3_600_000;
      if (!(await store.claim(credential.challenge.id, expiresAtMs))) {
        throw new ReplayedCredentialError(credential.challenge.id);
      }
      return Receipt.from({
        method: "test",
        reference: `rcpt_${randomBytes(12).toString("hex")}`,
        status: "success",
        timestamp: new Date().toISOString(),
      });
    },
  }) as Method.AnyServer;
}

/** The production methods' SDK modules are loaded only when one is configured (they pull in viem and more). */
export async function configureMethod(c: PaymentMethodConfig, store: PaymentStore): Promise<ConfiguredMethod> {
  const { stripe, tempo } =
    c.method === "test"
      ? ({} as typeof import("@plumbline-kit/contract/vendor/mppx-server"))
      : await import("@plumbline-kit/contract/vendor/mppx-server");
  switch (c.method) {
    case "test":
      return {
        name: "test",
        server: testServer(c.key, store),
        settlesOnVerify: false,
        requestFor: (amount, currency, recipient) => ({ amount, currency, recipient }),
      };
    case "tempo":
      return {
        name: "tempo",
        // the SDK's own replay store (in memory, per process) guards Tempo charges
        server: tempo.charge({ currency: c.currency, recipient: c.recipient, testnet: c.testnet }) as Method.AnyServer,
        settlesOnVerify: true,
        requestFor: (amount) => ({ amount }),
      };
    case "stripe":
      return {
        name: "stripe",
        server: stripe.charge({
          secretKey: c.secretKey,
          networkId: c.networkId,
          paymentMethodTypes: c.paymentMethodTypes,
          decimals: c.decimals ?? 2,
        }) as Method.AnyServer,
        settlesOnVerify: true,
        requestFor: (amount, currency) => ({ amount, currency }),
      };
  }
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * One `--payment-method` flag: `tempo:currency=0x…,recipient=0x…[,testnet]` or
 * `stripe:network-id=ID[,payment-method-types=card,…][,decimals=2]` (the Stripe secret key comes from
 * STRIPE_SECRET_KEY, never from the command line, where other users of the machine could read it).
 */
export function parsePaymentMethodSpec(spec: string, env: Record<string, string | undefined>): PaymentMethodConfig {
  const [name, rest = ""] = spec.split(/:(.*)/s, 2);
  const opts = new Map<string, string>();
  for (const part of rest.split(",").filter(Boolean)) {
    const [k, v = "true"] = part.split(/=(.*)/s, 2);
    opts.set(k.trim(), v.trim());
  }
  const known = (allowed: string[]) => {
    for (const k of opts.keys())
      if (!allowed.includes(k)) throw new Error(`--payment-method ${name}: unknown option "${k}"`);
  };
  if (name === "tempo") {
    known(["currency", "recipient", "testnet"]);
    const currency = opts.get("currency") ?? "";
    const recipient = opts.get("recipient") ?? "";
    if (!ADDRESS.test(currency)) throw new Error("--payment-method tempo: currency=0x… (a token address) is required");
    if (!ADDRESS.test(recipient)) throw new Error("--payment-method tempo: recipient=0x… (an address) is required");
    return {
      method: "tempo",
      currency: currency as `0x${string}`,
      recipient: recipient as `0x${string}`,
      testnet: opts.get("testnet") === "true",
    };
  }
  if (name === "stripe") {
    known(["network-id", "payment-method-types", "decimals"]);
    const networkId = opts.get("network-id");
    if (!networkId) throw new Error("--payment-method stripe: network-id=ID is required");
    const secretKey = env.STRIPE_SECRET_KEY;
    if (!secretKey) throw new Error("--payment-method stripe needs STRIPE_SECRET_KEY in the environment");
    const decimals = Number(opts.get("decimals") ?? "2");
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18)
      throw new Error("--payment-method stripe: decimals takes 0..18");
    return {
      method: "stripe",
      secretKey,
      networkId,
      paymentMethodTypes: (opts.get("payment-method-types") ?? "card").split("+").filter(Boolean),
      decimals,
    };
  }
  throw new Error(`--payment-method takes tempo:… or stripe:…, not "${spec}" (the test method: --payment-test-key)`);
}

/** The methods of `--payment-test-key KEY` and `--payment-method SPEC …`. */
export function paymentMethodsFromFlags(
  testKey: string | undefined,
  specs: string[] | undefined,
  env: Record<string, string | undefined>,
): PaymentMethodConfig[] {
  const methods: PaymentMethodConfig[] = [];
  if (testKey !== undefined) {
    if (testKey.length < 8) throw new Error("--payment-test-key takes a key of at least 8 characters");
    methods.push({ method: "test", key: testKey });
  }
  for (const spec of specs ?? []) methods.push(parsePaymentMethodSpec(spec, env));
  return methods;
}
