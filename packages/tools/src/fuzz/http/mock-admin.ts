// The two admin calls the fuzzer makes on a target that advertises /__mock (mock/README.md "Admin API"):
// a fresh account per worker or model run, and moving the manual clock.
import type { HttpClient } from "./http-client.ts";

export type AdminResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export async function createAccount(client: HttpClient, credits: number): Promise<AdminResult<string>> {
  const r = await client.send({ method: "POST", path: "/__mock/accounts", body: { credits } }, null);
  if (!r.ok) return { ok: false, reason: r.message };
  const key = (r.json as { key?: unknown } | undefined)?.key;
  if (r.status !== 201 || typeof key !== "string") return { ok: false, reason: `POST /__mock/accounts: ${r.status}` };
  return { ok: true, value: key };
}

export async function advanceClock(client: HttpClient, ms: number): Promise<AdminResult<number>> {
  const r = await client.send({ method: "POST", path: "/__mock/clock/advance", body: { ms } }, null);
  if (!r.ok) return { ok: false, reason: r.message };
  if (r.status !== 200) return { ok: false, reason: `POST /__mock/clock/advance: ${r.status}` };
  return { ok: true, value: Number((r.json as { epochMs?: unknown } | undefined)?.epochMs) };
}
