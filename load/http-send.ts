// One HTTP request on an undici pool, answer or failure as a value. Used where autocannon's closed loop does
// not fit: the open loop's schedule, deepcrawl flows, setup steps and the /usage reads. The dispatch handler
// API is used (not fetch) because it is the cheapest client in Node and tells when a request hits the wire.
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
