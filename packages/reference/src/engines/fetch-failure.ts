// What a thrown fetch error means to a caller (style 6: expected failures are values): the SSRF guard's refusal is
// PLB_TARGET_FORBIDDEN; a cancelled, oversized, slow or unreachable fetch is PLB_UPSTREAM_FAILED, with a message
// that says which. undici wraps errors (`cause`), so the chain is searched.
import { ForbiddenAddressError } from "./guarded-lookup.ts";
import { BodyTooLargeError } from "./response-body.ts";

export const fail = (code: "PLB_TARGET_FORBIDDEN" | "PLB_UPSTREAM_FAILED" | "PLB_BAD_VALUE", message: string) =>
  ({ ok: false, code, message }) as const;

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err; e && out.length < 5; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

export interface FailedFetch {
  url: string;
  timeoutMs: number;
  /** the client's own total timeout */
  deadline: AbortSignal;
  /** the caller's signal, when it gave one */
  caller?: AbortSignal;
}

export function thrownFailure(err: unknown, f: FailedFetch) {
  const chain = causes(err);
  const forbidden = chain.find((e) => e instanceof ForbiddenAddressError);
  if (forbidden) return fail("PLB_TARGET_FORBIDDEN", (forbidden as Error).message);
  if (f.caller?.aborted) return fail("PLB_UPSTREAM_FAILED", `The fetch of ${f.url} was cancelled`);
  const tooLarge = chain.find((e) => e instanceof BodyTooLargeError);
  if (tooLarge) return fail("PLB_UPSTREAM_FAILED", `The target ${f.url} sent too much: ${(tooLarge as Error).message}`);
  const code = chain.map((e) => (e as { code?: string }).code).find(Boolean);
  if (f.deadline.aborted)
    return fail("PLB_UPSTREAM_FAILED", `The target ${f.url} did not answer within ${f.timeoutMs} ms`);
  if (code && /TIMEOUT/.test(code)) return fail("PLB_UPSTREAM_FAILED", `The target ${f.url} timed out (${code})`);
  const detail = code ?? (err as Error)?.message ?? String(err);
  return fail("PLB_UPSTREAM_FAILED", `The target ${f.url} could not be fetched (${detail})`);
}
