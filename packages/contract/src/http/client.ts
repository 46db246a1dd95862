// The one HTTP client of the client tools (the conformance suite, the fuzzer): keep-alive node:http(s), one time
// allowance per request (headers and body; "never a hang"), transport failures returned as values (a dropped
// connection is a finding, not a crash), redirects followed or handed back, compressed bodies decoded, one retry of
// a request whose kept-alive socket the server had closed, and the 429 loop that waits as Retry-After says.
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
      ms: number;
    }
  | {
      ok: false;
      kind: "timeout" | "dropped" | "refused";
      message: string;
      /** the system's error code (ECONNREFUSED, ECONNRESET, …) when there is one */
      code?: string;
      ms: number;
    };

export interface HttpClient {
  request(req: HttpRequest): Promise<HttpAnswer>;
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

export function createHttpClient(): HttpClient {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  function once(
    url: URL,
    req: HttpRequest,
    endAt: number,
    started: number,
  ): Promise<(HttpAnswer & { reused?: boolean }) | { redirect: string; status: number }> {
    const secure = url.protocol === "https:";
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const ms = () => performance.now() - started;
    return new Promise((resolve) => {
      let settled = false;
      const done = (v: Awaited<ReturnType<typeof once>>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(v);
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
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (req.redirect !== "manual" && status >= 300 && status < 400 && status !== 304 && location) {
            res.resume();
            done({ redirect: new URL(location, url).href, status });
            return;
          }
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", (e) => done({ ok: false, kind: "dropped", message: e.message, ms: ms() }));
          res.on("aborted", () => done({ ok: false, kind: "dropped", message: "response aborted", ms: ms() }));
          res.on("end", () => {
            const body = decode(Buffer.concat(chunks), headerText(res.headers, "content-encoding"));
            done({ ok: true, status, headers: res.headers, body, url: url.href, ms: ms() });
          });
        },
      );
      const timer = setTimeout(
        () => {
          done({ ok: false, kind: "timeout", message: `no answer within ${req.timeoutMs} ms`, ms: ms() });
          request.destroy();
        },
        Math.max(0, endAt - performance.now()),
      );
      request.on("error", (e: NodeJS.ErrnoException) => {
        const kind = e.code === "ECONNREFUSED" || e.code === "ENOTFOUND" ? "refused" : "dropped";
        const message = `${e.code ?? ""} ${e.message}`.trim();
        done({ ok: false, kind, message, code: e.code, ms: ms(), reused: request.reusedSocket });
      });
      request.end(req.body);
    });
  }

  return {
    async request(req) {
      const started = performance.now();
      const endAt = started + req.timeoutMs;
      let current = { ...req, headers: { ...req.headers } };
      let url = new URL(req.url);
      for (let hop = 0; ; hop++) {
        let answer = await once(url, current, endAt, started);
        // A kept-alive socket the server closed while idle fails on reuse; Node's docs advise one retry (the
        // request never reached the server).
        if ("ok" in answer && !answer.ok && answer.kind === "dropped" && answer.reused)
          answer = await once(url, current, endAt, started);
        if (!("redirect" in answer)) {
          const { reused: _, ...rest } = answer as HttpAnswer & { reused?: boolean };
          return rest;
        }
        if (hop >= MAX_REDIRECTS)
          return { ok: false, kind: "dropped", message: `more than ${MAX_REDIRECTS} redirects`, ms: 0 };
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
