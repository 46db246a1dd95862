// How the load generator sends a request where autocannon's closed loop does not fit (the open loop's schedule,
// deepcrawl flows, setup steps, the /usage reads): through the client tools' one HTTP client
// (contract/src/http/client.ts), set up for measuring:
//  - at most `connections` sockets: a request beyond them waits in the client's queue, and its latency here starts
//    when a connected socket takes it (`sentAt`), so the wait stays the open loop's schedule lag (the
//    coordinated-omission correction) and is not counted as the target's; its time allowance starts then too;
//  - sent exactly once (`retryReused: false`), never redirected: a paid call sent twice would be charged twice and
//    the credit accounting would blame the target; a 3xx is the answer measured;
//  - a body read only when asked (`keepBody`), else dropped, and at most MAX_BODY_BYTES kept (a failure beyond);
//  - no 429 loop: a run measures throttling, it does not wait it out (rate-limits.ts reads the headers).
// Both this and the limiter read Retry-After and the RateLimit headers through spec/ (rate-limits.ts →
// spec/rate-limit-headers.ts).
import { createHttpClient } from "@plumbline-kit/contract/http/client";
import { type LimitHeaders, limitHeaders } from "./rate-limits.ts";

export interface SendRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export type SendResult =
  | { ok: true; status: number; body: string; sentAt: number; ms: number; headers: LimitHeaders }
  | { ok: false; error: string; sent: boolean };

export interface Sender {
  send(req: SendRequest, options?: { keepBody?: boolean }): Promise<SendResult>;
  /** fails every queued and unanswered request */
  close(): Promise<void>;
}

/** The most of an answer's body a run keeps (a batch of 50 extracts is far below; an endless body is not). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function createSender(base: URL, connections: number, timeoutMs = 10_000): Sender {
  const client = createHttpClient({ maxSockets: connections });
  const prefix = `${base.origin}${base.pathname.replace(/\/$/, "")}`;
  return {
    async send(req, options = {}) {
      const r = await client.request({
        method: req.method,
        url: prefix + req.path,
        headers: req.headers,
        body: req.body,
        timeoutMs,
        timeoutFrom: "socket",
        redirect: "manual",
        retryReused: false,
        discardBody: !options.keepBody,
        maxBodyBytes: MAX_BODY_BYTES,
      });
      if (!r.ok) return { ok: false, error: r.message, sent: r.sent };
      return {
        ok: true,
        status: r.status,
        body: options.keepBody ? r.body.toString() : "",
        sentAt: r.sentAt,
        ms: r.endAt - r.sentAt,
        headers: limitHeaders(r.headers),
      };
    },
    async close() {
      client.close();
    },
  };
}
