// The credits one answered request costs, as the load tool counts them: prices from the spec, the charging
// rules of D-charging (charged on completion; rejected and failed calls cost nothing; a crawl answered 404 or
// 410 is charged; batches are charged entry by entry and a failed entry costs 0).
import type { Contract } from "@plumbline-kit/contract";
import type { RequestTemplate } from "./request-plan.ts";

/** Whether the credits of this answer depend on its body (batches are charged per successful entry). */
export const needsBody = (t: RequestTemplate, status: number) => t.batch && status >= 200 && status < 300;

function batchEntriesCharged(t: RequestTemplate, contract: Contract, body: string): number {
  const entries = t.value as unknown[];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // an unreadable batch answer: count nothing, the accounting check will show the difference
    return 0;
  }
  if (Array.isArray(parsed)) {
    // batch crawl: an array of the crawl responses that succeeded, in any order, matched back by URL
    const left = new Map<string, number>();
    for (const item of parsed) {
      const url = (item as { crawlParameters?: { url?: unknown } })?.crawlParameters?.url;
      if (typeof url === "string") left.set(url, (left.get(url) ?? 0) + 1);
    }
    let credits = 0;
    for (const entry of entries) {
      const url = (entry as { url?: string }).url ?? "";
      const n = left.get(url) ?? 0;
      if (n > 0) {
        left.set(url, n - 1);
        credits += contract.prices.entryCredits(t.operationId, entry);
      }
    }
    return credits;
  }
  // search and news batches: results[i] answers entry i, with its own success flag
  const results = (parsed as { results?: Array<{ success?: unknown }> })?.results ?? [];
  let credits = 0;
  for (const [i, entry] of entries.entries()) {
    if (results[i]?.success === true) credits += contract.prices.entryCredits(t.operationId, entry);
  }
  return credits;
}

export function creditsCharged(
  t: RequestTemplate,
  status: number,
  body: string | undefined,
  contract: Contract,
): number {
  if (t.maxCredits === 0) return 0;
  if (status >= 200 && status < 300)
    return t.batch
      ? batchEntriesCharged(t, contract, body ?? "")
      : contract.prices.requestCredits(t.operationId, t.value);
  if (t.operationId === "crawl" && !t.batch && (status === 404 || status === 410))
    return contract.prices.requestCredits(t.operationId, t.value);
  return 0;
}
