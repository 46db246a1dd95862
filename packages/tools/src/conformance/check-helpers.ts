// Small helpers shared by the check families: failures as values, balance reads through GET /usage (the only way an
// outside client can observe charging, interface-spec "GET /usage"), and short descriptions of exchanges.
import type { Auth } from "./http-client.ts";
import type { Exchange, Failure, RunContext } from "./types.ts";

export function failure(
  message: string,
  exchanges: Exchange[] | number[],
  expected?: string,
  actual?: string,
): Failure {
  const ids = exchanges.map((e) => (typeof e === "number" ? e : e.id));
  return { message, exchanges: ids, expected, actual };
}

export function describe(ex: Exchange): string {
  const path = ex.request.url.replace(/^https?:\/\/[^/]+/, "");
  return `${ex.request.method} ${path} → ${ex.response ? ex.response.status : (ex.error ?? "no answer")}`;
}

export function status(ex: Exchange): number | null {
  return ex.response?.status ?? null;
}

export function json<T = Record<string, unknown>>(ex: Exchange): T | undefined {
  return ex.response?.json as T | undefined;
}

export interface Balance {
  value: number | null;
  exchange: Exchange;
}

/** The remaining balance of an account (interface-spec "Usage response": `usage` is the remaining balance). */
export async function balance(ctx: RunContext, by: string, auth: Auth = "main", noRetry = false): Promise<Balance> {
  const ex = await ctx.http.call(by, "GET", "/usage", { auth, noRetry });
  const usage = json<{ usage?: unknown }>(ex)?.usage;
  return { value: ex.response?.status === 200 && typeof usage === "number" ? usage : null, exchange: ex };
}

export interface Measured<T> {
  result: T;
  /** credits charged between the two readings; null when a reading failed */
  charged: number | null;
  before: Balance;
  after: Balance;
}

/** Runs `fn` between two balance readings. Sequential by design: a concurrent call would blur the reading. */
export async function measureCharge<T>(ctx: RunContext, by: string, fn: () => Promise<T>): Promise<Measured<T>> {
  const before = await balance(ctx, by);
  const result = await fn();
  const after = await balance(ctx, by);
  const charged = before.value === null || after.value === null ? null : before.value - after.value;
  return { result, charged, before, after };
}

/** A failure for an unreadable balance, so a broken /usage never passes a billing check silently. */
export function unreadableBalance(m: Measured<unknown>): Failure {
  return failure(
    "GET /usage did not return a balance, so charging could not be measured",
    [m.before.exchange, m.after.exchange],
    "200 with an integer usage",
    `${describe(m.before.exchange)}, ${describe(m.after.exchange)}`,
  );
}

export function ok(notes: string[] = []) {
  return { failures: [], notes };
}

/** One failure per distinct problem text, listing every exchange that shows it (reports stay readable). */
export function grouped(
  items: Array<{ message: string; ex: Exchange; expected?: string; actual?: string }>,
): Failure[] {
  const by = new Map<string, Failure>();
  for (const i of items) {
    const f = by.get(i.message) ?? failure(i.message, [], i.expected, i.actual);
    f.exchanges.push(i.ex.id);
    by.set(i.message, f);
  }
  return [...by.values()];
}
