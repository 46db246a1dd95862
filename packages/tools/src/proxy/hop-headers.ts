// Headers across the proxy (RFC 9110 §7.6.1): hop-by-hop fields, and any field the Connection header names, end at
// each hop; Host names the upstream; X-Forwarded-* tell the upstream who asked and through what.
import type { HeaderList } from "./exchange.ts";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Raw headers (`[name, value, name, value, …]`, as node:http gives them) as a list of pairs. */
export function pairsOf(raw: string[]): HeaderList {
  const out: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}

/** The headers of a list without the hop-by-hop ones and those Connection names. */
export function endToEnd(headers: HeaderList): HeaderList {
  const named = new Set<string>();
  for (const [k, v] of headers)
    if (k.toLowerCase() === "connection") for (const t of v.split(",")) named.add(t.trim().toLowerCase());
  return headers.filter(([k]) => {
    const lower = k.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower);
  });
}

export function headerValue(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of headers) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Headers as an object, lower-case names, repeats joined with ", " (what the spec's header validators take). */
export function headerRecord(headers: HeaderList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) {
    const lower = k.toLowerCase();
    out[lower] = out[lower] === undefined ? v : `${out[lower]}, ${v}`;
  }
  return out;
}

export interface ForwardedFrom {
  clientAddress: string;
  /** the Host the client addressed the proxy with */
  host: string | undefined;
}

/**
 * The request headers sent upstream: end-to-end ones, Host rewritten to the upstream's, Expect dropped (the proxy
 * has read the body already), and X-Forwarded-For/-Host/-Proto appended to what earlier proxies set.
 */
export function upstreamRequestHeaders(headers: HeaderList, upstream: URL, from: ForwardedFrom): HeaderList {
  const out: HeaderList = [];
  let xff: string | undefined;
  for (const [k, v] of endToEnd(headers)) {
    const lower = k.toLowerCase();
    if (lower === "host" || lower === "expect" || lower === "content-length") continue;
    if (lower === "x-forwarded-for") {
      xff = xff ? `${xff}, ${v}` : v;
      continue;
    }
    if (lower === "x-forwarded-host" || lower === "x-forwarded-proto") continue;
    out.push([k, v]);
  }
  out.push(["host", upstream.host]);
  out.push(["x-forwarded-for", xff ? `${xff}, ${from.clientAddress}` : from.clientAddress]);
  if (from.host) out.push(["x-forwarded-host", headerValue(headers, "x-forwarded-host") ?? from.host]);
  out.push(["x-forwarded-proto", headerValue(headers, "x-forwarded-proto") ?? "http"]);
  return out;
}

/** Flat `[name, value, …]` as writeHead and http.request take them. */
export function flat(headers: HeaderList): string[] {
  const out: string[] = [];
  for (const [k, v] of headers) out.push(k, v);
  return out;
}
