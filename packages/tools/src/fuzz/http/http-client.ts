// The fuzzer's HTTP client, over the shared one (spec/http/client.ts): keep-alive node:http(s), a per-request timeout (issue 6: "never a hang"), and transport
// failures returned as values so a dropped connection is a finding, not a crash (issue 6: "never a dropped
// connection"). It speaks to any target; nothing here knows the mock.
import { createHttpClient as createSharedClient, retryOn429 } from "@plumbline-kit/contract/http/client";
import { createPacer, type RateOption, retryAfterSeconds } from "@plumbline-kit/contract/rate-limit-headers";

/** A target-independent request: what the corpus stores and what curl reproduces. */
export interface FuzzRequest {
  method: "GET" | "POST";
  /** path with the query string, e.g. `/usage?period=day` */
  path: string;
  /** JSON body (serialized with JSON.stringify) */
  body?: unknown;
  /** a raw body sent as is (malformed JSON); wins over `body` */
  rawBody?: string;
  /** defaults to application/json when a body is sent */
  contentType?: string;
  /** extra request headers (an `Authorization: Payment …` credential, sent with no key) */
  headers?: Record<string, string>;
}

export type HttpOutcome =
  | {
      ok: true;
      status: number;
      headers: Record<string, string | string[] | undefined>;
      contentType: string;
      /** parsed JSON when the content type says JSON; undefined otherwise or when it does not parse */
      json: unknown;
      jsonError: boolean;
      bytes: number;
      /** the body as received (decoded), for the registry's rules on binary answers (screenshots, zips) */
      body?: Buffer;
      ms: number;
    }
  | { ok: false; kind: "timeout" | "dropped" | "refused"; message: string; ms: number };

export interface HttpClient {
  readonly baseUrl: string;
  /** `key` overrides the client's API key; `null` sends no credential */
  send(req: FuzzRequest, key?: string | null): Promise<HttpOutcome>;
  /**
   * A read the fuzzer makes for its own bookkeeping (`/usage`, status polls): a 429 is waited out as its
   * `Retry-After` says and retried, a bounded number of times and never past the deadline; the last answer is
   * returned, so a caller still holding a 429 knows it was throttled, not failed.
   */
  read(req: FuzzRequest, key?: string | null): Promise<HttpOutcome>;
  close(): void;
}

export interface HttpClientOptions {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  /** requests per second at most, or "auto" (default): the pace the target's RateLimit header advertises */
  rate?: RateOption;
  /** epoch ms after which no wait is started (the run's time budget); null: none */
  deadline?: () => number | null;
  /** one line per wait for Retry-After */
  onWait?: (line: string) => void;
}

const MAX_READ_ATTEMPTS = 4;

/**
 * D-batch-execution: a batch runs a few entries at a time (4) and answers within its deadline (60 s) whatever its
 * entries do. A batch's time allowance grows with its work, as many single calls' worth as rounds of entries it
 * runs, up to that deadline plus one call's allowance: a slow target is not a hung one (issue 25: a 50-entry batch
 * of unreachable hosts, flagged under load though its target answered within its deadline).
 */
const BATCH_CONCURRENCY = 4;
const BATCH_DEADLINE_MS = 60_000;

/** How long `req` may take before the fuzzer calls it a hang: `timeoutMs` for one call, more for a batch. */
export function answerAllowanceMs(req: Pick<FuzzRequest, "body" | "rawBody">, timeoutMs: number): number {
  if (req.rawBody !== undefined || !Array.isArray(req.body) || req.body.length <= 1) return timeoutMs;
  const rounds = Math.ceil(req.body.length / BATCH_CONCURRENCY);
  return Math.min(rounds * timeoutMs, BATCH_DEADLINE_MS + timeoutMs);
}
export { retryAfterSeconds };

export function createHttpClient(o: HttpClientOptions): HttpClient {
  const base = new URL(o.baseUrl);
  const prefix = base.pathname.replace(/\/$/, "");
  const deadline = o.deadline ?? (() => null);
  const pacer = createPacer(o.rate ?? "auto", deadline);
  const http = createSharedClient();

  async function send(req: FuzzRequest, key?: string | null): Promise<HttpOutcome> {
    const credential = key === undefined ? o.apiKey : key;
    await pacer.before(req.path);
    const payload = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const headers: Record<string, string> = { accept: "application/json, */*" };
    if (credential) headers.authorization = `Bearer ${credential}`;
    Object.assign(headers, req.headers);
    if (payload !== undefined) headers["content-type"] = req.contentType ?? "application/json";
    const answer = await http.request({
      method: req.method,
      url: base.origin + prefix + req.path,
      headers,
      body: payload,
      timeoutMs: answerAllowanceMs(req, o.timeoutMs),
      redirect: "manual",
    });
    // no body cap is asked here, so no answer is "too-large"
    if (!answer.ok)
      return {
        ok: false,
        kind: answer.kind === "too-large" ? "dropped" : answer.kind,
        message: answer.message,
        ms: answer.ms,
      };
    pacer.after(req.path, answer.headers);
    const contentType = String(answer.headers["content-type"] ?? "");
    let json: unknown;
    let jsonError = false;
    if (/json/i.test(contentType)) {
      try {
        json = JSON.parse(answer.body.toString("utf8"));
      } catch {
        jsonError = true;
      }
    }
    return {
      ok: true,
      status: answer.status,
      headers: answer.headers,
      contentType,
      json,
      jsonError,
      bytes: answer.body.length,
      body: answer.body,
      ms: answer.ms,
    };
  }

  return {
    baseUrl: base.origin + prefix,
    send,
    async read(req, key) {
      return retryOn429(() => send(req, key), {
        attempts: MAX_READ_ATTEMPTS,
        deadline,
        onWait: (seconds) =>
          o.onWait?.(`  rate-limited on ${req.method} ${req.path}: waiting ${seconds} s (Retry-After)`),
      });
    },
    close() {
      http.close();
    },
  };
}
