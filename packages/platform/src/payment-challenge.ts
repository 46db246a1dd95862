// The 402 payment challenge (D-payment-challenge, D-auth): an MPP `Payment` challenge followed by a Bearer
// challenge naming the protected-resource metadata (RFC 9728), with an RFC 9457 problem body.
import { randomBytes } from "node:crypto";
import type { Contract, ErrorCode, SerializedError } from "@plumbline-kit/contract";
import { serializeError } from "@plumbline-kit/contract";

export interface ChallengeOptions {
  baseUrl: string;
  realm: string;
  price: string;
  currency: string;
  recipient: string;
  nowMs: number;
  /** seconds the challenge stays valid */
  ttlSeconds?: number;
}

export function resourceMetadataUrl(baseUrl: string): string {
  return `${baseUrl}/.well-known/oauth-protected-resource`;
}

export function bearerChallenge(baseUrl: string, error?: "invalid_token"): string {
  const meta = `resource_metadata="${resourceMetadataUrl(baseUrl)}"`;
  return error ? `Bearer error="${error}", ${meta}` : `Bearer ${meta}`;
}

export function paymentChallenge(
  code: Extract<ErrorCode, "PLB_PAYMENT_REQUIRED" | "PLB_INSUFFICIENT_CREDITS">,
  message: string | undefined,
  o: ChallengeOptions,
): { error: SerializedError; headers: Record<string, string> } {
  const challengeId = `ch_${randomBytes(12).toString("hex")}`;
  const request = Buffer.from(
    JSON.stringify({ amount: o.price, currency: o.currency, recipient: o.recipient }),
  ).toString("base64url");
  const expires = new Date(o.nowMs + (o.ttlSeconds ?? 300) * 1000).toISOString();
  const payment = `Payment id="${challengeId}", realm="${o.realm}", method="mpp", intent="charge", request="${request}", expires="${expires}"`;
  return {
    error: serializeError(code, { message, extra: { challengeId } }),
    headers: {
      "www-authenticate": `${payment}, ${bearerChallenge(o.baseUrl)}`,
      "cache-control": "no-store",
    },
  };
}

/** Currency of the fixed prices (D-price-currency), read from the document. */
export function priceCurrency(contract: Contract): string {
  return String((contract.raw["x-pricing-currency"] as { currency?: string } | undefined)?.currency ?? "usd");
}
