// The suite's only way to talk to a target: every request and answer is recorded as an Exchange, so the traffic
// checks can judge all of it afterwards and reports can show (and curl can reproduce) any of it.
// Credentials are recorded as environment-variable placeholders, never as their values.

import type { Contract } from "@plumbline-kit/contract";
import { createHttpClient as createSharedClient, headerText, retryOn429 } from "@plumbline-kit/contract/http/client";
import { createRateWindows, type RateLimitSetting } from "./rate-windows.ts";
import type { Exchange, RecordedResponse } from "./types.ts";

export type Auth = "main" | "broke" | "none" | { bearer: string };

export interface CallOptions {
  body?: unknown;
  /** a body sent verbatim (malformed JSON and the like) */
  raw?: string;
  contentType?: string;
  auth?: Auth;
  headers?: Record<string, string>;
  /** do not wait and retry on 429 (the rate-limit check wants to see them) */
  noRetry?: boolean;
  /** "manual": hand a 3xx back instead of following it (the OAuth authorization redirect) */
  redirect?: "manual";
}

export const KEY_ENV = { main: "PLUMBLINE_API_KEY", broke: "PLUMBLINE_BROKE_API_KEY" } as const;
const TEXT_LIMIT = 8000;

export interface HttpClient {
  readonly target: string;
  readonly exchanges: Exchange[];
  call(by: string, method: string, pathOrUrl: string, options?: CallOptions): Promise<Exchange>;
  /** closes the kept-alive connections */
  close(): void;
}

/** The contract operation a method and path belong to (path templates matched segment by segment). */
export function operationFor(contract: Contract, method: string, path: string): string | null {
  const segments = path.split("?")[0].split("/");
  const op = contract.operations.find((o) => {
    if (o.method !== method.toLowerCase()) return false;
    const t = o.path.split("/");
    return (
      t.length === segments.length && t.every((s, i) => (s.startsWith("{") ? segments[i] !== "" : s === segments[i]))
    );
  });
  return op?.operationId ?? null;
}

function isJson(contentType: string): boolean {
  return /[/+]json\b/.test(contentType);
}

export interface ClientOptions {
  target: string;
  apiKey: string;
  brokeApiKey?: string;
  requestTimeoutMs: number;
  contract: Contract;
  runId: string;
  onWait?: (line: string) => void;
  /** pace below the target's windows (default auto: learnt from its RateLimit headers) */
  rateLimit?: RateLimitSetting;
}

export function createHttpClient(o: ClientOptions): HttpClient {
  const target = o.target.replace(/\/+$/, "");
  const exchanges: Exchange[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const http = createSharedClient();
  const windows = createRateWindows(o.rateLimit ?? "auto");
  const secrets: Array<[string, string]> = [];
  for (const [key, env] of [
    [o.apiKey, KEY_ENV.main],
    [o.brokeApiKey, KEY_ENV.broke],
  ] as const) {
    if (key) secrets.push([key, `$${env}`], [encodeURIComponent(key), `$${env}`]);
  }
  // reports are CI artifacts: a key sent anywhere else than the header (the query-credential check) is masked too
  const redact = (text: string) => secrets.reduce((t, [secret, env]) => t.split(secret).join(env), text);

  async function once(by: string, method: string, pathOrUrl: string, c: CallOptions): Promise<Exchange> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${target}${pathOrUrl}`;
    const id = exchanges.length + 1;
    const headers: Record<string, string> = { "x-request-id": `plb-${o.runId}-${id}`, ...c.headers };
    const shown: Record<string, string> = { ...headers };
    const auth = c.auth ?? "main";
    if (auth === "main" || auth === "broke") {
      const key = auth === "main" ? o.apiKey : o.brokeApiKey;
      if (key === undefined) throw new Error("no broke API key configured (a precondition should have skipped this)");
      headers.authorization = `Bearer ${key}`;
      shown.authorization = `Bearer $${KEY_ENV[auth]}`;
    } else if (auth !== "none") {
      headers.authorization = shown.authorization = `Bearer ${auth.bearer}`;
    }
    let body: string | undefined = c.raw;
    if (c.body !== undefined) body = JSON.stringify(c.body);
    if (body !== undefined) headers["content-type"] = shown["content-type"] = c.contentType ?? "application/json";
    const sameOrigin = url.startsWith(target);
    const ex: Exchange = {
      id,
      by,
      operationId: sameOrigin ? operationFor(o.contract, method, new URL(url).pathname) : null,
      request: {
        method,
        url: redact(url),
        headers: shown,
        body:
          body === undefined ? undefined : redact(body.length > TEXT_LIMIT ? `${body.slice(0, TEXT_LIMIT)}…` : body),
      },
      durationMs: 0,
      sent: c.body,
    };
    exchanges.push(ex);
    try {
      const answer = await http.request({
        method,
        url,
        headers: { accept: "*/*", ...headers },
        body,
        timeoutMs: o.requestTimeoutMs,
        redirect: c.redirect ?? "follow",
      });
      ex.durationMs = Math.round(answer.ms);
      ex.at = Date.now();
      if (!answer.ok) {
        ex.error = `${answer.kind}: ${answer.message}`;
        return ex;
      }
      const raw = answer.body;
      const contentType = headerText(answer.headers, "content-type") ?? "";
      const response: RecordedResponse = {
        status: answer.status,
        headers: Object.fromEntries(
          Object.keys(answer.headers).map((name) => [name, headerText(answer.headers, name) ?? ""]),
        ),
        contentType,
        text: "",
        bytes: raw.length,
      };
      const textual = isJson(contentType) || contentType.startsWith("text/") || contentType === "";
      response.text = textual ? raw.toString("utf8").slice(0, TEXT_LIMIT) : `<${raw.length} bytes of ${contentType}>`;
      if (isJson(contentType)) {
        try {
          response.json = JSON.parse(raw.toString("utf8"));
        } catch {
          // left undefined: the schema checks report a JSON content type whose body does not parse
        }
      }
      ex.response = response;
      ex.raw = raw;
      // the broke account's windows are its own: its answers must not reset what the suite knows of the main one's
      if (sameOrigin && auth !== "broke") windows.observe(response.headers, Date.now());
    } catch (err) {
      // a request node refuses to send (a header value it cannot write)
      ex.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    return ex;
  }

  /** Authenticated calls of the target draw on its windows (D-rate-limits); the rate-limit check wants the 429. */
  async function pace(method: string, pathOrUrl: string, c: CallOptions) {
    if (c.noRetry || c.auth === "none" || c.auth === "broke" || /^https?:\/\//.test(pathOrUrl)) return;
    const { waitMs, window } = windows.reserve(operationFor(o.contract, method, pathOrUrl), Date.now());
    if (waitMs <= 0) return;
    o.onWait?.(`pacing: the "${window}" window is used up; ${method} ${pathOrUrl} waits ${Math.ceil(waitMs / 1000)} s`);
    await sleep(waitMs);
  }

  return {
    target,
    exchanges,
    async call(by, method, pathOrUrl, c = {}) {
      await pace(method, pathOrUrl, c);
      const send = async () => {
        const ex = await once(by, method, pathOrUrl, c);
        return { ex, ...(ex.response ? { ok: true as const, ...ex.response } : { ok: false as const }) };
      };
      if (c.noRetry) return (await send()).ex;
      // the suite is a well-behaved client: wait as told (D-rate-limits) rather than fail on someone's limit
      const last = await retryOn429(send, {
        attempts: 3,
        onWait: (seconds) => o.onWait?.(`rate-limited on ${method} ${pathOrUrl}: waiting ${seconds} s (Retry-After)`),
      });
      return last.ex;
    },
    close() {
      http.close();
    },
  };
}
