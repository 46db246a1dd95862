// Test glue: HAR 1.2 from Exchange-shaped data, written as /work/har-conventions.md says the proxy's recorder writes
// it (bodies decompressed with their Content-Encoding kept in the headers, binary answers base64, secrets redacted),
// so replay is tested against the format before and beside the recorder itself. Also a tiny capturing client that
// turns calls to a running server into Exchanges.
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Exchange, HeaderList } from "../../proxy/exchange.ts";
import type { PlumblineEntry, PlumblineHar } from "../../proxy/har/har-entry.ts";

const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "payment",
  "payment-receipt",
]);
const SECRET_FIELD = /^(api_?key|apikey|token|access_token|refresh_token|secret|password|key)$/i;

function isText(mime: string): boolean {
  const ct = mime.split(";")[0].trim().toLowerCase();
  return (
    ct.startsWith("text/") ||
    ct === "application/json" ||
    ct === "application/xml" ||
    ct === "application/yaml" ||
    ct.endsWith("+json") ||
    ct.endsWith("+xml") ||
    ct.includes("markdown") ||
    ct.includes("html")
  );
}

function headerOf(headers: HeaderList, name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
      return gunzipSync(body);
    case "br":
      return brotliDecompressSync(body);
    case "deflate":
      return inflateSync(body);
    default:
      return body;
  }
}

function redactJson(value: unknown, redacted: string[], at = ""): unknown {
  if (Array.isArray(value)) return value.map((v, i) => redactJson(v, redacted, `${at}/${i}`));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (SECRET_FIELD.test(k) && typeof v === "string") {
        redacted.push(`body:${at}/${k}`);
        return [k, "[REDACTED]"];
      }
      return [k, redactJson(v, redacted, `${at}/${k}`)];
    }),
  );
}

function harHeaders(headers: HeaderList, redacted: string[]) {
  return headers.map(([name, value]) => {
    if (!SECRET_HEADERS.has(name.toLowerCase())) return { name, value };
    redacted.push(name.toLowerCase());
    return { name, value: "[REDACTED]" };
  });
}

export function harEntry(ex: Exchange, upstream = ex.upstream ?? "http://upstream.test"): PlumblineEntry {
  const redacted: string[] = [];
  const url = new URL(ex.request.path, upstream);
  for (const [k] of url.searchParams) {
    if (SECRET_FIELD.test(k)) {
      url.searchParams.set(k, "[REDACTED]");
      redacted.push(`query:${k}`);
    }
  }
  let postText: string | undefined;
  if (ex.request.body.length) {
    const text = ex.request.body.toString("utf8");
    try {
      postText = JSON.stringify(redactJson(JSON.parse(text), redacted));
    } catch {
      postText = text;
    }
  }
  const requestHeaders = harHeaders(ex.request.headers, redacted);
  const res = ex.response;
  const mime = res ? (headerOf(res.headers, "content-type") ?? "") : "";
  const body = res ? decoded(res.body, headerOf(res.headers, "content-encoding")) : Buffer.alloc(0);
  const text = isText(mime) ? body.toString("utf8") : body.toString("base64");
  return {
    startedDateTime: new Date(ex.startedAt).toISOString(),
    time: ex.timings.send + ex.timings.wait + ex.timings.receive,
    request: {
      method: ex.request.method,
      url: url.toString(),
      httpVersion: ex.request.httpVersion,
      headers: requestHeaders,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: ex.request.body.length,
      ...(postText !== undefined
        ? { postData: { mimeType: headerOf(ex.request.headers, "content-type") ?? "", text: postText } }
        : {}),
    },
    response: {
      status: res?.status ?? 0,
      statusText: res?.statusText ?? "",
      httpVersion: res?.httpVersion ?? "",
      headers: res ? harHeaders(res.headers, redacted) : [],
      cookies: [],
      content: {
        size: body.length,
        mimeType: mime,
        ...(res ? { text } : {}),
        ...(res && !isText(mime) ? { encoding: "base64" } : {}),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: res?.body.length ?? 0,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, ...ex.timings },
    _plumbline: {
      id: ex.id,
      operationId: ex.operationId,
      servedBy: ex.servedBy,
      redacted: [...new Set(redacted)],
      ...(ex.error ? { error: ex.error } : {}),
    },
  };
}

export function harOf(exchanges: Exchange[], upstream?: string): PlumblineHar {
  return {
    log: {
      version: "1.2",
      creator: { name: "plumbline", version: "test" },
      entries: exchanges.map((ex) => harEntry(ex, upstream)),
    },
  };
}

export interface Capture {
  exchanges: Exchange[];
  /** calls `base + path` with fetch and keeps the exchange; returns the exchange (its body undecoded) */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<Exchange>;
}

/** A client that keeps every exchange it makes with a server, as the proxy would see it. */
export function capture(base: string): Capture {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      const body = o.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(o.body));
      if (o.body !== undefined) headers["content-type"] = "application/json";
      const startedAt = Date.now();
      const res = await fetch(`${base}${path}`, { method, headers, body: body.length ? body : undefined });
      const answer = Buffer.from(await res.arrayBuffer());
      const ex: Exchange = {
        id: exchanges.length + 1,
        startedAt,
        timings: { send: 0, wait: Date.now() - startedAt, receive: 0 },
        upstream: base,
        servedBy: "upstream",
        request: { method, path, httpVersion: "1.1", headers: Object.entries(headers), body },
        response: {
          status: res.status,
          statusText: res.statusText,
          httpVersion: "1.1",
          // fetch decodes a compressed answer: the headers then say what is on the wire no longer
          headers: [...res.headers].filter(([n]) => n !== "content-encoding"),
          body: answer,
        },
      };
      exchanges.push(ex);
      return ex;
    },
  };
}

/** A copy of an exchange whose JSON answer `edit` changes (content length left as recorded: replay drops it). */
export function editJson(ex: Exchange, edit: (body: Record<string, unknown>) => unknown): Exchange {
  const res = ex.response as NonNullable<Exchange["response"]>;
  const body = edit(JSON.parse(res.body.toString("utf8")));
  return { ...ex, response: { ...res, body: Buffer.from(JSON.stringify(body)) } };
}
