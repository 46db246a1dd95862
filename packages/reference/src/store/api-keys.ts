// API keys are stored hashed, with only a short prefix kept readable, and compared in constant time (issue 5).
// Keys are 160 random bits, so a plain sha256 is enough: there is nothing to brute-force, unlike a password.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const KEY_PREFIX_LENGTH = 12;

export function newApiKey(): string {
  return `plb_${randomBytes(4).toString("hex")}_${randomBytes(20).toString("hex")}`;
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Constant-time comparison of a presented key with a stored hash. */
export function keyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(key), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
