// The one HTTP client of the client tools (the conformance suite, the fuzzer, the load generator): keep-alive
// node:http(s), one time allowance per request (headers and body; "never a hang"), transport failures returned as
// values (a dropped connection is a finding, not a crash), redirects followed or handed back, compressed bodies
// decoded, one retry of a request whose kept-alive socket the server had closed, and the 429 loop that waits as
// Retry-After says. What a load run needs of it (load/http-send.ts): a bound on sockets (`maxSockets`, requests
// beyond it wait in the client's queue), when a request got its socket and its first byte (so a latency leaves out
// the client's own queue), sending exactly once (`retryReused: false`: a paid call sent twice would be charged
// twice), a body read and dropped or capped, and `close()` failing whatever is queued or unanswered.
// Self-contained: no import outside spec/.
import http from "node:http";
import https from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { retryAfterSeconds } from "../rate-limit-headers.ts";

export interface HttpRequest {
  method: string;
  /** the absolute URL */
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** the whole exchange's allowance, redirects included */
  timeoutMs: number;
  /** "manual": hand a 3xx back instead of following it (default "follow", up to 20 hops) */
  redirect?: "follow" | "manual";
  /**
   * false: send exactly once, even when a kept-alive socket fails on reuse (default true: one more try, as Node's
   * docs advise; right when an answer is wanted, wrong when a second send could be charged twice)
   */
  retryReused?: boolean;
  /** "socket": the allowance starts when a socket takes the request, not while it waits in the client's queue */
  timeoutFrom?: "call" | "socket";
  /** read the body and drop it (the answer's `body` is empty): the caller needs the status and headers only */
  discardBody?: boolean;
  /** the most body bytes kept; a longer answer is a failure (`kind` "too-large"), its socket closed */
  maxBodyBytes?: number;
}

export interface HttpClientOptions {
  /** the most sockets open to one origin at once; requests beyond it wait in the client's queue (default no bound) */
  maxSockets?: number;
}

export type HttpHeaders = Record<string, string | string[] | undefined>;

export type HttpAnswer =
  | {
      ok: true;
      status: number;
      headers: HttpHeaders;
      /** the body, decoded when it came gzip, deflate or br */
      body: Buffer;
      /** the URL that answered (after redirects) */
      url: string;
      /** from request() to the answer's last byte */
      ms: number;
      /** performance.now() when the last request of the exchange had a connected socket (it left the queue) */
      sentAt: number;
      /** performance.now() when the answer's status line and headers arrived */
      firstByteAt: number;
      /** performance.now() when its last byte arrived */
      endAt: number;
    }
  | {
      ok: false;
      kind: "timeout" | "dropped" | "refused" | "too-large";
      message: string;
      /** the system's error code (ECONNREFUSED, ECONNRESET, …) when there is one */
      code?: string;
      ms: number;
      /** a connected socket took the request: it may have reached the server (and been charged) */
      sent: boolean;
    };

export interface HttpClient {
  request(req: HttpRequest): Promise<HttpAnswer>;
  /** fails every queued and unanswered request, closes every socket; later requests fail at once */
  close(): void;
}

const MAX_REDIRECTS = 20;

/** One header value as a string: repeated headers joined with ", " (as fetch's Headers do). */
export function headerText(headers: HttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  const e = (encoding ?? "").trim().toLowerCase();
  if (body.length === 0 || e === "" || e === "identity") return body;
  try {
    if (e === "gzip" || e === "x-gzip") return gunzipSync(body);
    if (e === "deflate") return inflateSync(body);
    if (e === "br") return brotliDecompressSync(body);
  } catch {
    // a body that does not decode is handed back as sent: the checks judge what arrived
  }
  return body;
}

/**
 * The path and query to send: as the caller wrote them when they are plain printable ASCII (a fuzzer's `/../` or
 * odd escapes reach the target unchanged), else as the URL parser encodes them (spaces, non-ASCII).
 */
function rawPath(written: string, url: URL): string {
  const rest = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(written)?.[1] ?? "";
  if (!/^[\x21-\x7e]*$/.test(rest)) return url.pathname + url.search;
  return rest === "" ? "/" : rest.startsWith("?") ? `/${rest}` : rest;
}

type Once = (HttpAnswer & { reused?: boolean }) | { redirect: string; status: number };

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const bound = options.maxSockets ? { maxSockets: options.maxSockets } : {};
  const agents = {
    http: new http.Agent({ keepAlive: true, ...bound }),
    https: new https.Agent({ keepAlive: true, ...bound }),
  };
  // every request not yet answered, queued ones included: close() fails them
  const open = new Set<http.ClientRequest>();
  let closed = false;

  function once(url: URL, req: HttpRequest, endAt: number, started: number): Promise<Once> {
    const secure = url.protocol === "https:";
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const ms = () => performance.now() - started;
    return new Promise((resolve) => {
      let settled = false;
      let sentAt = 0;
      let timer: NodeJS.Timeout | undefined;
      const done = (v: Once) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        open.delete(request);
        resolve(v);
      };
      const failed = (kind: "timeout" | "dropped" | "refused" | "too-large", message: string, code?: string) =>
        done({ ok: false, kind, message, ...(code ? { code } : {}), ms: ms(), sent: sentAt > 0 });
      const arm = (at: number) => {
        timer = setTimeout(
          () => {
            failed("timeout", `no answer within ${req.timeoutMs} ms`);
            request.destroy();
          },
          Math.max(0, at - performance.now()),
        );
      };
      const request = (secure ? https : http).request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port,
          path: rawPath(req.url, url),
          method: req.method,
          headers,
          agent: secure ? agents.https : agents.http,
        },
        (res) => {
          const firstByteAt = performance.now();
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (req.redirect !== "manual" && status >= 300 && status < 400 && status !== 304 && location) {
            res.resume();
            done({ redirect: new URL(location, url).href, status });
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (req.maxBodyBytes !== undefined && size > req.maxBodyBytes) {
              failed("too-large", `the answer's body is over ${req.maxBodyBytes} bytes`);
              request.destroy();
              return;
            }
            if (!req.discardBody) chunks.push(c);
          });
          res.on("error", (e) => failed("dropped", e.message));
          res.on("aborted", () => failed("dropped", "response aborted"));
          res.on("end", () => {
            const body = decode(Buffer.concat(chunks), headerText(res.headers, "content-encoding"));
            const endAt = performance.now();
            done({ ok: true, status, headers: res.headers, body, url: url.href, ms: ms(), sentAt, firstByteAt, endAt });
          });
        },
      );
      open.add(request);
      // the request leaves the client's queue when a connected socket takes it (a new socket once it connects)
      request.on("socket", (socket) => {
        // out of the queue: the allowance of a "socket" caller starts now (connecting included)
        if (req.timeoutFrom === "socket" && timer === undefined) arm(performance.now() + req.timeoutMs);
        const take = () => {
          if (sentAt === 0) sentAt = performance.now();
        };
        if (socket.connecting) socket.once("connect", take);
        else take();
      });
      if (req.timeoutFrom !== "socket") arm(endAt);
      request.on("error", (e: NodeJS.ErrnoException) => {
        const kind = e.code === "ECONNREFUSED" || e.code === "ENOTFOUND" ? "refused" : "dropped";
        const message = `${e.code ?? ""} ${e.message}`.trim();
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        open.delete(request);
        resolve({ ok: false, kind, message, code: e.code, ms: ms(), sent: sentAt > 0, reused: request.reusedSocket });
      });
      request.end(req.body);
    });
  }

  return {
    async request(req) {
      const started = performance.now();
      if (closed) return { ok: false, kind: "dropped", message: "the client was closed", ms: 0, sent: false };
      const endAt = started + req.timeoutMs;
      let current = { ...req, headers: { ...req.headers } };
      let url = new URL(req.url);
      for (let hop = 0; ; hop++) {
        let answer = await once(url, current, endAt, started);
        // A kept-alive socket the server closed while idle fails on reuse; Node's docs advise one retry (the
        // request never reached the server). Not for a caller that must send exactly once.
        if (
          req.retryReused !== false &&
          !closed &&
          "ok" in answer &&
          !answer.ok &&
          answer.kind === "dropped" &&
          answer.reused
        )
          answer = await once(url, current, endAt, started);
        if (!("redirect" in answer)) {
          const { reused: _, ...rest } = answer as HttpAnswer & { reused?: boolean };
          return rest;
        }
        if (hop >= MAX_REDIRECTS)
          return { ok: false, kind: "dropped", message: `more than ${MAX_REDIRECTS} redirects`, ms: 0, sent: true };
        const next = new URL(answer.redirect);
        // as fetch does: 303, and 301/302 after a POST, continue as GET without the body; a credential does not
        // follow to another origin
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && current.method === "POST")) {
          const headers = Object.fromEntries(
            Object.entries(current.headers).filter(([k]) => !/^content-(type|length)$/i.test(k)),
          );
          current = { ...current, method: current.method === "HEAD" ? "HEAD" : "GET", body: undefined, headers };
        }
        if (next.origin !== url.origin)
          current = {
            ...current,
            headers: Object.fromEntries(
              Object.entries(current.headers).filter(([k]) => !/^(authorization|cookie)$/i.test(k)),
            ),
          };
        url = next;
        current = { ...current, url: next.href };
      }
    },
    close() {
      closed = true;
      for (const r of open) r.destroy(new Error("the client was closed"));
      open.clear();
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** What the 429 loop reads of an answer (the shared client's, or a caller's own record of it). */
export type Throttlable = { ok: false } | { ok: true; status: number; headers: HttpHeaders };

export interface RetryAfterOptions {
  /** attempts in all, the first included */
  attempts: number;
  /** epoch ms after which no wait is started (a run's time budget); null: none */
  deadline?: () => number | null;
  /** told each wait before it starts */
  onWait?: (seconds: number) => void;
}

/**
 * Sends until the answer is not a 429, waiting between attempts as its Retry-After says (seconds or an HTTP date;
 * 5 s when absent or unreadable, 1 to 65 s), a bounded number of times and never past the deadline. The last answer
 * is returned, so a caller still holding a 429 knows it was throttled, not failed.
 */
export async function retryOn429<A extends Throttlable>(send: () => Promise<A>, o: RetryAfterOptions): Promise<A> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    const a: Throttlable = answer;
    if (!a.ok || a.status !== 429 || attempt >= o.attempts) return answer;
    const seconds = retryAfterSeconds(a.headers["retry-after"]);
    const end = o.deadline?.() ?? null;
    if (end !== null && Date.now() + seconds * 1000 > end) return answer;
    o.onWait?.(seconds);
    await new Promise((r) => setTimeout(r, seconds * 1000));
  }
}
