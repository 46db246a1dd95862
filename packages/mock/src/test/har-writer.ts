// Test glue: HAR 1.2 from Exchange-shaped data, written by the proxy's own recorder functions (bodies decompressed
// with their Content-Encoding kept in the headers, binary answers base64, secrets redacted), so replay is tested
// against exactly what `plumbline proxy --record` writes. Also a tiny capturing client that turns calls to a running
// server into Exchanges.
import type { Exchange } from "@plumbline-kit/tools/proxy/exchange";
import {
  type PlumblineEntry,
  type PlumblineHar,
  harEntry as recordedEntry,
} from "@plumbline-kit/tools/proxy/har/har-entry";
import { redactedView } from "@plumbline-kit/tools/proxy/redacted-view";
import { createRedactor } from "@plumbline-kit/tools/proxy/redaction";

const redactor = createRedactor();

/** The entry plumbline's recorder writes for the exchange (its redaction and decoding, the proxy's defaults). */
export function harEntry(ex: Exchange, upstream = ex.upstream ?? "http://upstream.test"): PlumblineEntry {
  const view = redactedView({ ...ex, upstream }, { redactor, upstream, maxDecodedBytes: 64 * 1024 * 1024 });
  return recordedEntry({ ...ex, upstream }, view);
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
