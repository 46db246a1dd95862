// The one outbound HTTP client of the reference (issue 5, "POST /crawl"), on undici: connect and total timeouts, a
// size cap, redirects followed by hand so every hop passes the SSRF guard, a descriptive User-Agent, gzip/br
// decoding. Failures are values (style 6): PLB_TARGET_FORBIDDEN for a refused address, PLB_UPSTREAM_FAILED for an
// unreachable, slow, oversized or otherwise broken target. A 4xx/5xx answer is a response, not a failure.
import { isIP } from "node:net";
import {
  alwaysForbiddenReason,
  forbiddenReason,
  literalHostReason,
  malformedHostReason,
} from "@plumbline-kit/platform/address-policy";
import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { Agent } from "undici";
import type { ByteBudget } from "./byte-budget.ts";
import { fail, thrownFailure } from "./fetch-failure.ts";
import {
  type AddressPolicy,
  guardedLookup,
  literalRefusal,
  type Resolver,
  resolvedRefusal,
  systemResolver,
} from "./guarded-lookup.ts";
import { readBody } from "./response-body.ts";
import { DEFAULT_USER_AGENT } from "./user-agent.ts";

export interface HttpClientOptions {
  /** fetch loopback and private addresses too (tests, `--allow-private-network`); cloud metadata and link-local stay refused */
  allowPrivateNetwork?: boolean;
  connectTimeoutMs?: number;
  /** the whole fetch, redirects and body included */
  timeoutMs?: number;
  /** decoded body bytes at most (default 5 MiB) */
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  resolve?: Resolver;
  /** which addresses are refused (default address-policy.ts); tests vouch for their fixture address with it */
  addressPolicy?: AddressPolicy;
}

export interface FetchOptions {
  signal?: AbortSignal;
  maxBytes?: number;
  accept?: string;
  /** false: hand a 3xx back as it is (the browser follows it and each hop comes back through the guard) */
  followRedirects?: boolean;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** a byte budget shared with other fetches (one render's requests, byte-budget.ts) */
  budget?: ByteBudget;
}

export interface FetchedResponse {
  /** the final URL, after redirects */
  url: string;
  status: number;
  /** lower-case names; repeated headers joined with ", " (set-cookie with "\n") */
  headers: Record<string, string>;
  body: Buffer;
  /** every URL redirected to, in order */
  redirects: string[];
}

export interface HttpClient {
  fetch(url: string, options?: FetchOptions): Promise<EngineResult<FetchedResponse>>;
  /**
   * Why this client would refuse to fetch `url`'s host (a malformed or refused name, or one resolving to a refused
   * address, by the same guarded lookup its connections use), or null; asked before work is accepted (deepcrawl).
   */
  refusal?(url: string, signal?: AbortSignal): Promise<string | null>;
  close(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function flatten(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(k === "set-cookie" ? "\n" : ", ") : v;
  }
  return out;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  // D-target-refusal: the flag opens loopback and private networks to fixture sites, never cloud metadata
  const policy = options.allowPrivateNetwork ? alwaysForbiddenReason : (options.addressPolicy ?? forbiddenReason);
  const timeoutMs = options.timeoutMs ?? 15_000;
  // undici (~0.2 s to load) at the first fetch: a reference that serves only its index or the mock's engines never
  // loads it
  let undici: Promise<{ agent: Agent; request: typeof import("undici").request }> | undefined;
  const client = () => {
    undici ??= import("undici").then(({ Agent, request }) => ({
      request,
      agent: new Agent({
        connect: {
          timeout: options.connectTimeoutMs ?? 5_000,
          lookup: guardedLookup(options.resolve ?? systemResolver, policy),
        },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      }),
    }));
    return undici;
  };

  /** The refusals made before DNS; strips a trailing dot from `target`'s host (`localhost.` is `localhost`). */
  function hostRefusal(target: URL, current: string) {
    // a name that cannot name a host is the caller's bad value (issue 12)
    const malformed = malformedHostReason(target.hostname);
    if (malformed) return fail("PLB_BAD_VALUE", `The target ${current} has ${malformed}`);
    if (target.hostname.endsWith(".")) target.hostname = target.hostname.replace(/\.+$/, "");
    const literal = policy && literalRefusal(target.hostname, policy);
    if (literal) return fail("PLB_TARGET_FORBIDDEN", literal);
    // names refused without DNS (localhost, cloud metadata names), unless a test vouches with its own policy
    const named =
      !options.addressPolicy &&
      !isIP(target.hostname) &&
      literalHostReason(target.hostname, options.allowPrivateNetwork);
    if (named)
      return fail(
        "PLB_TARGET_FORBIDDEN",
        `The target host ${target.hostname} is a ${named} address; this service fetches public addresses only`,
      );
    return null;
  }

  async function refusal(url: string, signal?: AbortSignal): Promise<string | null> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return null; // the fetch answers for a URL that does not parse
    }
    const refused = hostRefusal(target, url);
    if (refused) return refused.message;
    if (isIP(target.hostname.replace(/^\[|\]$/g, ""))) return null;
    return resolvedRefusal(target.hostname, options.resolve ?? systemResolver, policy, signal);
  }

  async function fetchUrl(url: string, o: FetchOptions = {}): Promise<EngineResult<FetchedResponse>> {
    // a deadline cleared when the fetch ends: AbortSignal.timeout's timer outlives a fetch by its whole 15 s, and
    // under crawl load the hundreds alive at once were moved to the old generation by every collection (issue 12)
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
      timeoutMs,
    );
    try {
      return await fetchWithin(url, o, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async function fetchWithin(
    url: string,
    o: FetchOptions,
    deadline: AbortSignal,
  ): Promise<EngineResult<FetchedResponse>> {
    const signal = o.signal ? AbortSignal.any([deadline, o.signal]) : deadline;
    const maxRedirects = options.maxRedirects ?? 5;
    const redirects: string[] = [];
    let current = url;
    let method = o.method ?? "GET";
    let body = o.body;
    let extra = o.headers ?? {};
    for (;;) {
      let target: URL;
      try {
        target = new URL(current);
      } catch {
        return fail("PLB_UPSTREAM_FAILED", `${current} is not a valid URL`);
      }
      if (target.protocol !== "http:" && target.protocol !== "https:")
        return fail("PLB_UPSTREAM_FAILED", `${current} is not an http(s) URL`);
      const refused = hostRefusal(target, current);
      if (refused) return refused;
      try {
        const { agent, request } = await client();
        const res = await request(target, {
          dispatcher: agent,
          method: method as "GET",
          body,
          signal,
          headers: {
            "user-agent": options.userAgent ?? DEFAULT_USER_AGENT,
            accept: o.accept ?? "*/*",
            "accept-encoding": "gzip, deflate, br",
            ...extra,
          },
        });
        const headers = flatten(res.headers);
        if (REDIRECTS.has(res.statusCode) && headers.location && o.followRedirects !== false) {
          await res.body.dump();
          if (redirects.length >= maxRedirects)
            return fail("PLB_UPSTREAM_FAILED", `The target ${url} redirected more than ${maxRedirects} times`);
          const next = new URL(headers.location, target);
          // credentials a page sent to its own origin do not follow it to another one (as browsers do)
          if (next.origin !== target.origin) {
            const { cookie: _c, authorization: _a, ...rest } = extra;
            extra = rest;
          }
          // RFC 9110 15.4: 303 continues with GET, and so does a POST answered 301/302 (as browsers do); 307/308 keep it
          if (res.statusCode === 303 || (method === "POST" && res.statusCode <= 302))
            [method, body] = ["GET", undefined];
          current = next.href;
          redirects.push(current);
          continue;
        }
        const maxBytes = o.maxBytes ?? options.maxBytes ?? 5 * 1024 * 1024;
        const decoded = await readBody(res.body, headers["content-encoding"], maxBytes, o.budget);
        return { ok: true, value: { url: target.href, status: res.statusCode, headers, body: decoded, redirects } };
      } catch (err) {
        return thrownFailure(err, { url: current, timeoutMs, deadline, caller: o.signal });
      }
    }
  }

  return { fetch: fetchUrl, refusal, close: async () => (undici ? (await undici).agent.close() : undefined) };
}
