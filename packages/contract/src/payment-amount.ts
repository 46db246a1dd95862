// What a pay-per-request call costs (interface-spec "What the service does" 2; D-payment-challenge): the fixed
// decimal price of each entry, surcharges included, summed over a batch. Decimal strings are added as scaled
// integers, never as floats ("0.003" × 3 is "0.009", not 0.009000000000000001).
import type { PriceTable } from "./price-table.ts";

const SCALE = 12;

function toUnits(decimal: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) throw new Error(`not a decimal price: "${decimal}"`);
  const fraction = (m[2] ?? "").padEnd(SCALE, "0").slice(0, SCALE);
  return BigInt(m[1]) * 10n ** BigInt(SCALE) + BigInt(fraction || "0");
}

function fromUnits(units: bigint): string {
  const whole = units / 10n ** BigInt(SCALE);
  const fraction = (units % 10n ** BigInt(SCALE)).toString().padStart(SCALE, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** The sum of decimal amounts, as a decimal string. */
export function addAmounts(amounts: string[]): string {
  return fromUnits(amounts.reduce((sum, a) => sum + toUnits(a), 0n));
}

/** One entry's price: the operation's fixed price plus, per surcharge unit, the unit operation's price. */
export function entryPrice(prices: PriceTable, operationId: string, entry: unknown): string {
  const pricing = prices.get(operationId);
  if (!pricing) return "0";
  const parts = [pricing.price];
  const s = pricing.surcharge;
  if (s && entry !== null && typeof entry === "object") {
    const units = (entry as Record<string, unknown>)[s.parameter];
    const unitPrice = prices.get(s.perUnitOperation)?.price;
    // an out-of-range count is refused by validation before any credential is checked; it prices nothing here
    if (unitPrice && typeof units === "number" && Number.isSafeInteger(units) && units > 0 && units <= 10_000) {
      parts.push(fromUnits(toUnits(unitPrice) * BigInt(units)));
    }
  }
  return addAmounts(parts);
}

/** A whole request's price: the sum over its entries when it is a batch (batches are priced per entry). */
export function requestPrice(prices: PriceTable, operationId: string, body: unknown): string {
  const entries = Array.isArray(body) ? body.slice(0, 10_000) : [body];
  return addAmounts(entries.map((e) => entryPrice(prices, operationId, e)));
}

/** `a − b` for decimal amounts (never below zero). */
export function subtractAmounts(a: string, b: string): string {
  const d = toUnits(a) - toUnits(b);
  return fromUnits(d > 0n ? d : 0n);
}
