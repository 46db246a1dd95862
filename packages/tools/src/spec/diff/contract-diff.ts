// The contract's own facts, derived from each document as the spec module derives them and compared as facts,
// not text: an operation's price (x-pricing, read by pricingOf as the price table reads it, or the x-payment-info of
// pay-per-request documents: an amount and protocols), the rate-limit policy
// (x-rate-limits, read by readRateLimits as loadContract reads it) and the error codes of the catalogue each
// operation documents (the `code` of its error responses' examples). A moved or reformatted extension is no change.
import { readRateLimits } from "@plumbline-kit/contract/contract";
import type { OpenApiDocument } from "@plumbline-kit/contract/document";
import { type Pricing, pricingOf } from "@plumbline-kit/contract/operations";
import { plural } from "@plumbline-kit/contract/report/plural";
import type { ChangeCollector } from "./changes.ts";
import type { OperationPair, OperationRef } from "./operation-diff.ts";
import { child, isObj, type Loc, type Resolver } from "./resolve.ts";

/**
 * An operation's price as either extension says it: plumbline's `x-pricing` (credits, an amount, one protocol, a
 * surcharge) or the `x-payment-info` of pay-per-request documents (`{protocols: [...], pricingMode: "fixed",
 * price: "0.003"}`: an amount and the protocols, no credits nor surcharge). `x-pricing` wins when both are there.
 */
export interface OperationPrice {
  /** the extension it was read from, and its pointer */
  extension: "x-pricing" | "x-payment-info";
  pointer: string;
  credits?: number;
  /** the amount a call is asked, as written ("0.003"); undefined when not a fixed price */
  price?: string;
  protocols: string[];
  surcharge?: Pricing["surcharge"];
}

export function priceOf(op: Loc): OperationPrice | null {
  if (!isObj(op.node)) return null;
  const own = pricingOf(op.node);
  if (own) {
    return {
      extension: "x-pricing",
      pointer: child(op, "x-pricing").pointer,
      credits: own.credits,
      price: own.price,
      protocols: own.protocol ? [own.protocol] : [],
      surcharge: own.surcharge,
    };
  }
  const info = op.node["x-payment-info"];
  if (!isObj(info)) return null;
  const fixed = info.pricingMode === undefined || info.pricingMode === "fixed";
  const amount = typeof info.price === "string" || typeof info.price === "number" ? String(info.price) : undefined;
  return {
    extension: "x-payment-info",
    pointer: child(op, "x-payment-info").pointer,
    price: fixed ? amount : undefined,
    protocols: Array.isArray(info.protocols) ? info.protocols.map(String) : [],
  };
}

/** Credits of one unit of the surcharge (the per-unit operation's credits), 0 without one. */
function surchargeCredits(p: OperationPrice, pricingById: Map<string, OperationPrice | null>): number {
  if (!p.surcharge) return 0;
  return pricingById.get(p.surcharge.perUnitOperation)?.credits ?? 0;
}

export function pricingIndex(operations: OperationRef[]): Map<string, OperationPrice | null> {
  const out = new Map<string, OperationPrice | null>();
  for (const op of operations) if (op.operationId) out.set(op.operationId, priceOf(op.loc));
  return out;
}

const cost = (p: OperationPrice) =>
  p.credits !== undefined ? `${plural(p.credits, "credit")}${p.price ? ` (${p.price})` : ""}` : (p.price ?? "a price");

export function comparePricing(
  pair: OperationPair,
  prices: { base: Map<string, OperationPrice | null>; revision: Map<string, OperationPrice | null> },
  out: ChangeCollector,
): void {
  const op = pair.revision.label;
  const b = priceOf(pair.base.loc);
  const r = priceOf(pair.revision.loc);
  if (!b && !r) return;
  if (!b && r) {
    out.add(
      "operation-now-paid",
      `a client calling ${op} now pays ${cost(r)} a call; it was free`,
      pair.base.loc.pointer,
      r.pointer,
      op,
    );
    return;
  }
  if (b && !r) {
    const was = b.credits !== undefined ? plural(b.credits, "credit") : (b.price ?? "a price");
    out.add("operation-now-free", `${op} is now free; it cost ${was}`, b.pointer, pair.revision.loc.pointer, op);
    return;
  }
  const bp = b as OperationPrice;
  const rp = r as OperationPrice;
  // credits and surcharges are compared only when both sides say them (x-payment-info carries neither)
  if (bp.credits !== undefined && rp.credits !== undefined && bp.credits !== rp.credits) {
    const up = rp.credits > bp.credits;
    out.add(
      up ? "price-raised" : "price-lowered",
      up
        ? `a client budgeting ${plural(bp.credits, "credit")} a call to ${op} is now charged ${rp.credits}`
        : `${op} now costs ${plural(rp.credits, "credit")} a call, not ${bp.credits}`,
      `${bp.pointer}/credits`,
      `${rp.pointer}/credits`,
      op,
    );
  }
  if (bp.price !== undefined && rp.price !== undefined && Number(bp.price) !== Number(rp.price)) {
    const up = Number(rp.price) > Number(bp.price);
    out.add(
      up ? "price-raised" : "price-lowered",
      up
        ? `a client paying ${bp.price} per call to ${op} is now asked ${rp.price} (a payment for the old amount is refused)`
        : `${op} now costs ${rp.price} per call, not ${bp.price}`,
      `${bp.pointer}/price`,
      `${rp.pointer}/price`,
      op,
    );
  }
  const lost = bp.protocols.filter((p) => !rp.protocols.includes(p));
  if (lost.length > 0 && rp.protocols.length > 0) {
    out.add(
      "payment-protocol-changed",
      `a client paying ${op} with ${lost.join(" or ")} must now pay with ${rp.protocols.join(" or ")}`,
      `${bp.pointer}/${bp.extension === "x-pricing" ? "protocol" : "protocols"}`,
      `${rp.pointer}/${rp.extension === "x-pricing" ? "protocol" : "protocols"}`,
      op,
    );
  }
  if (bp.extension !== "x-pricing" || rp.extension !== "x-pricing") return;
  const bs = surchargeCredits(bp, prices.base);
  const rs = surchargeCredits(rp, prices.revision);
  const bParam = bp.surcharge?.parameter;
  const rParam = rp.surcharge?.parameter;
  if (bs !== rs || bParam !== rParam) {
    const up = rs > bs || (rParam !== undefined && bParam !== rParam);
    const what = (param: string | undefined, credits: number) =>
      param ? `${plural(credits, "credit")} per \`${param}\`` : "no surcharge";
    out.add(
      up ? "price-raised" : "price-lowered",
      `${op} now charges ${what(rParam, rs)}, not ${what(bParam, bs)}`,
      bp.surcharge ? `${bp.pointer}/surcharge` : bp.pointer,
      rp.surcharge ? `${rp.pointer}/surcharge` : rp.pointer,
      op,
    );
  }
}

export function compareCurrency(base: Resolver, revision: Resolver, out: ChangeCollector): void {
  const currency = (side: Resolver) => {
    const c = side.document["x-pricing-currency"];
    return isObj(c) && typeof c.currency === "string" ? c.currency : undefined;
  };
  const b = currency(base);
  const r = currency(revision);
  if (b !== r && b !== undefined && r !== undefined) {
    out.add(
      "payment-protocol-changed",
      `every price is now in ${r}, not ${b}: a payment in ${b} is refused`,
      "/x-pricing-currency/currency",
      "/x-pricing-currency/currency",
    );
  }
}

export function compareRateLimits(base: Resolver, revision: Resolver, out: ChangeCollector): void {
  const b = readRateLimits(base.document as OpenApiDocument);
  const r = readRateLimits(revision.document as OpenApiDocument);
  const at = (side: Resolver, key: string) => (isObj(side.document["x-rate-limits"]) ? `/x-rate-limits/${key}` : "");
  const perMinute = (n: number, window: number) => (n * 60) / window;
  const bRate = perMinute(b.perAccount, b.windowSeconds);
  const rRate = perMinute(r.perAccount, r.windowSeconds);
  const policy = (n: number, w: number) => `${n} per ${w} s`;
  if (bRate !== rRate) {
    const tighter = rRate < bRate;
    out.add(
      tighter ? "rate-limit-tightened" : "rate-limit-loosened",
      tighter
        ? `a client pacing itself to ${policy(b.perAccount, b.windowSeconds)} per account now meets 429 (${policy(r.perAccount, r.windowSeconds)})`
        : `each account may now make ${policy(r.perAccount, r.windowSeconds)}, not ${policy(b.perAccount, b.windowSeconds)}`,
      at(base, b.perAccount !== r.perAccount ? "per_account" : "window_seconds"),
      at(revision, b.perAccount !== r.perAccount ? "per_account" : "window_seconds"),
    );
  }
  const ops = new Set([...Object.keys(b.perOperation), ...Object.keys(r.perOperation)]);
  for (const id of ops) {
    const bo = b.perOperation[id];
    const ro = r.perOperation[id];
    const bOp = bo === undefined ? bRate : perMinute(bo, b.windowSeconds);
    const rOp = ro === undefined ? rRate : perMinute(ro, r.windowSeconds);
    if (bOp === rOp || (bo === undefined && ro === undefined)) continue;
    const tighter = rOp < bOp;
    const bAt = bo === undefined ? at(base, "per_operation") : at(base, `per_operation/${id}`);
    const rAt = ro === undefined ? at(revision, "per_operation") : at(revision, `per_operation/${id}`);
    out.add(
      tighter ? "rate-limit-tightened" : "rate-limit-loosened",
      tighter
        ? `a client calling ${id} ${bOp} times a minute now meets 429 (its limit is ${rOp} a minute)`
        : `clients may now call ${id} ${rOp} times a minute, not ${bOp}`,
      bAt,
      rAt,
    );
  }
  if (b.retryAfterSeconds !== r.retryAfterSeconds) {
    out.add(
      "rate-limit-retry-after-changed",
      `a throttled client is now told to wait ${r.retryAfterSeconds} s, not ${b.retryAfterSeconds} s`,
      at(base, "retry_after_seconds"),
      at(revision, "retry_after_seconds"),
    );
  }
}

/** code → the statuses whose examples answer it, with where one of them says so. */
export function errorCodes(side: Resolver, op: Loc): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const responses = child(op, "responses");
  if (!isObj(responses.node)) return out;
  const note = (code: unknown, status: string, pointer: string) => {
    if (typeof code !== "string") return;
    const statuses = out.get(code) ?? new Map<string, string>();
    if (!statuses.has(status)) statuses.set(status, pointer);
    out.set(code, statuses);
  };
  for (const status of Object.keys(responses.node)) {
    if (/^[23]/.test(status)) continue;
    const response = side.resolve(child(responses, status));
    const content = child(response, "content");
    if (!isObj(content.node)) continue;
    for (const type of Object.keys(content.node)) {
      const media = side.resolve(child(content, type));
      const single = child(media, "example");
      if (isObj(single.node)) note(single.node.code, status, child(single, "code").pointer);
      const examples = child(media, "examples");
      if (!isObj(examples.node)) continue;
      for (const name of Object.keys(examples.node)) {
        const ex = side.resolve(child(examples, name));
        const value = child(ex, "value");
        if (isObj(value.node)) note(value.node.code, status, child(value, "code").pointer);
      }
    }
  }
  return out;
}

export function compareErrorCodes(pair: OperationPair, base: Resolver, revision: Resolver, out: ChangeCollector): void {
  const op = pair.revision.label;
  const bc = errorCodes(base, pair.base.loc);
  const rc = errorCodes(revision, pair.revision.loc);
  const bResponses = child(pair.base.loc, "responses");
  const rResponses = child(pair.revision.loc, "responses");
  const statusesOf = (l: Loc) => (isObj(l.node) ? Object.keys(l.node) : []);
  // a status removed or added whole is reported by its own rule; its codes go with it
  const kept = (statuses: Iterable<string>, other: Loc) => [...statuses].filter((s) => statusesOf(other).includes(s));
  for (const [code, statuses] of bc) {
    const now = rc.get(code);
    const first = [...statuses.values()][0];
    if (!now) {
      const still = kept(statuses.keys(), rResponses);
      if (still.length === 0) continue;
      out.add(
        "error-code-removed",
        `a client matching on ${code} (${[...statuses.keys()].join(", ")}) no longer gets it`,
        first,
        revision.resolve(child(rResponses, still[0])).pointer,
        op,
      );
      continue;
    }
    const was = [...statuses.keys()].sort().join(", ");
    const is = [...now.keys()].sort().join(", ");
    if (was !== is) {
      out.add(
        "error-code-status-changed",
        `a client expecting ${code} with status ${was} now gets it with ${is}`,
        first,
        [...now.values()][0],
        op,
      );
    }
  }
  for (const [code, statuses] of rc) {
    if (bc.has(code)) continue;
    const existed = kept(statuses.keys(), bResponses);
    if (existed.length === 0) continue;
    out.add(
      "error-code-added",
      `clients may now get ${code} (${[...statuses.keys()].join(", ")})`,
      base.resolve(child(bResponses, existed[0])).pointer,
      [...statuses.values()][0],
      op,
    );
  }
}
