// A server refuses a body over its size cap before validating it (PLB_BODY_TOO_LARGE, 400; the cap is the
// server's own, not the contract's). A generated body can pass a cap without being at fault: long strings of
// control characters escape to six bytes each, and a 50-entry batch of them passes a megabyte. Such an answer
// is judged as a refusal (nothing charged), not as the verdict the case expected. A cap below this floor
// would refuse ordinary requests, so a smaller body refused that way is still a finding.
import { FEEDBACK_BODY_LIMIT_BYTES } from "@plumbline-kit/contract/error-catalogue";
import type { FuzzRequest, HttpOutcome } from "../http/http-client.ts";

export const SIZE_CAP_FLOOR_BYTES = 64 * 1024;

type Answer = Extract<HttpOutcome, { ok: true }>;

export function refusedBySizeCap(request: FuzzRequest, answer: Answer): boolean {
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  const payload = request.rawBody ?? (request.body === undefined ? "" : JSON.stringify(request.body));
  // the live contract's /feedback reads at most 16 KiB, which its fields' bounds can pass (D-feedback)
  if (answer.status === 413 && code === "PLB_PAYLOAD_TOO_LARGE")
    return Buffer.byteLength(payload) > FEEDBACK_BODY_LIMIT_BYTES;
  if (answer.status !== 400 || code !== "PLB_BODY_TOO_LARGE") return false;
  return Buffer.byteLength(payload) > SIZE_CAP_FLOOR_BYTES;
}
