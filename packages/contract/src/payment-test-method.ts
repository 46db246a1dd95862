// The local test payment method (D-payment-methods): an mppx method named `test` whose credential is an
// HMAC-SHA256 of the challenge under a key the operator shares with its clients (`--payment-test-key`). It moves
// no money; it lets a fresh install, CI and client teams run the whole Payment flow offline through the SDK's
// own client and server code. Defined once here, so the server (reference/platform) and every client (client/,
// conformance, fuzz) speak the same wire format.
import { createHmac } from "node:crypto";
import { Challenge, Credential, Method, PaymentRequest, z } from "./vendor/mppx.ts";

export const testCharge = Method.from({
  name: "test",
  intent: "charge",
  schema: {
    credential: { payload: z.object({ signature: z.string() }) },
    request: z.object({ amount: z.string(), currency: z.string(), recipient: z.string() }),
  },
});

/** The signature a holder of `key` gives a challenge: it covers the challenge id, which the server's HMAC binds. */
export function testSignature(key: string, challenge: Challenge.Challenge): string {
  return createHmac("sha256", key)
    .update(`${challenge.id}|${challenge.realm}|${PaymentRequest.serialize(challenge.request)}`)
    .digest("base64url");
}

/** The `Authorization: Payment …` value paying `challenge` with the test method. */
export function testCredential(key: string, challenge: Challenge.Challenge): string {
  // serialize() gives the whole header value, scheme included
  return Credential.serialize({ challenge, payload: { signature: testSignature(key, challenge) } });
}

/** The test method for the SDK's client (`Mppx.create({ methods: [testClientMethod(key)] })`). */
export function testClientMethod(key: string) {
  return Method.toClient(testCharge, {
    async createCredential({ challenge }) {
      return Credential.serialize({ challenge, payload: { signature: testSignature(key, challenge) } });
    },
  });
}

/** The Payment challenges of a 402 response's `WWW-Authenticate` (other schemes, such as Bearer, are skipped). */
export function paymentChallenges(wwwAuthenticate: string | null | undefined): Challenge.Challenge[] {
  if (!wwwAuthenticate) return [];
  try {
    return Challenge.deserializeList(wwwAuthenticate);
  } catch {
    return [];
  }
}
