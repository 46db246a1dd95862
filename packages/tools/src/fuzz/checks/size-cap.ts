// A server refuses a body over its size cap before validating it (PLB_BODY_TOO_LARGE, 400; the cap is the
// server's own, not the contract's). A generated body can pass a cap without being at fault: long strings of
// control characters escape to six bytes each, and a 50-entry batch of them passes a megabyte. Such an answer
// is judged as a refusal (nothing charged), not as the verdict the case expected. A cap below this floor
// would refuse ordinary requests, so a smaller body refused that way is still a finding.
import type { FuzzRequest, HttpOutcome } from "../http/http-client.ts";

export const SIZE_CAP_FLOOR_BYTES = 64 * 1024;

type Answer = Extract<HttpOutcome, { ok: true }>;

export function refusedBySizeCap(request: FuzzRequest, answer: Answer): boolean {
  if (answer.status !== 400 || (answer.json as { code?: unknown } | undefined)?.code !== "PLB_BODY_TOO_LARGE")
    return false;
  const payload = request.rawBody ?? (request.body === undefined ? "" : JSON.stringify(request.body));
  return Buffer.byteLength(payload) > SIZE_CAP_FLOOR_BYTES;
}
