// One HTTP request on an undici pool, answer or failure as a value. Used where autocannon's closed loop does
// not fit: the open loop's schedule, deepcrawl flows, setup steps and the /usage reads. The dispatch handler
// API is used (not fetch) because it is the cheapest client in Node and tells when a request hits the wire.
//
// Why this is not spec/http/client.ts, the client tools' shared client (issue 35 asked; kept apart on purpose):
//  - timing: a latency here starts when the request is written to a socket (onConnect); the shared client's `ms`
//    starts when request() is called, so the time a request waits for a free connection in the client's own
//    queue would be counted as the target's. The open loop keeps that wait apart (it is the schedule's lag, the
//    coordinated-omission correction), and a run at thousands of requests a second is mostly that wait;
//  - connections: a load run opens exactly `connections` sockets (a bounded Pool); the shared client's keep-alive
//    Agent has no bound, so a burst would open as many sockets as requests in flight and measure connection setup;
//  - sending exactly once: the shared client sends a request again when its reused socket failed, assuming the
//    first never reached the server (right for a suite, which wants an answer); a load run cannot assume it: a paid
//    call charged twice would be counted once, and the credit accounting (balance before minus the credits of the
//    calls counted) would blame the target. It also follows redirects; here a 3xx is the answer measured;
//  - cost per request: the shared client buffers and decodes every body and arms a timer per request; here a body is
//    read only when asked (keepBody) and the pool's header and body timeouts do the rest, so the client's own CPU
//    (2 cores shared with the target in a local run) stays out of the figures.
// Both read Retry-After and the RateLimit headers through spec/ (rate-limits.ts → spec/rate-limit-headers.ts).
import { type Dispatcher, Pool } from "undici";
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

export function createSender(base: URL, connections: number, timeoutMs = 10_000): Sender {
  const pool = new Pool(base.origin, {
    connections,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 30_000,
  });
  const prefix = base.pathname.replace(/\/$/, "");
  return {
    send(req, options = {}) {
      return new Promise((resolve) => {
        let sentAt = 0;
        let status = 0;
        let headers: LimitHeaders = {};
        const chunks: Buffer[] = [];
        const handler: Dispatcher.DispatchHandlers = {
          // called as the request is written to a socket: the time before is spent in our own queue
          onConnect() {
            sentAt = performance.now();
          },
          onHeaders(statusCode, raw) {
            status = statusCode;
            headers = limitHeaders(raw);
            return true;
          },
          onData(chunk) {
            if (options.keepBody) chunks.push(chunk);
            return true;
          },
          onComplete() {
            const body = options.keepBody ? Buffer.concat(chunks).toString() : "";
            resolve({ ok: true, status, body, sentAt, ms: performance.now() - sentAt, headers });
          },
          onError(err) {
            resolve({ ok: false, error: err.message, sent: sentAt > 0 });
          },
        };
        pool.dispatch(
          {
            method: req.method as Dispatcher.HttpMethod,
            path: prefix + req.path,
            headers: req.headers,
            body: req.body,
          },
          handler,
        );
      });
    },
    async close() {
      await pool.destroy(new Error("the run ended"));
    },
  };
}
