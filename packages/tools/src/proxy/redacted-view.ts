// An exchange as it may be shown or stored: bodies decoded (Content-Encoding undone), text kept as text and binary
// as base64, and every secret redacted. The HAR recorder and the violation report both build on this one view.
import type { Exchange, HeaderList } from "./exchange.ts";
import { decodeBody, isTextual, utf8OrNull } from "./har/body-decoding.ts";
import { headerValue } from "./hop-headers.ts";
import type { Redactor } from "./redaction.ts";

export interface BodyView {
  mimeType: string;
  /** decoded byte length */
  size: number;
  text: string;
  encoding?: "base64";
  /** why the body is not shown decoded, when it is not */
  note?: string;
}

export interface RedactedView {
  method: string;
  /** path and query as the client sent them, secret query parameters redacted */
  path: string;
  /** the absolute URL the request was (or would have been) forwarded to, redacted */
  url: string;
  httpVersion: string;
  requestHeaders: HeaderList;
  requestBody: BodyView | null;
  response?: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HeaderList;
    body: BodyView;
    /** bytes on the wire, before decoding */
    wireSize: number;
  };
  /** what was redacted, e.g. `request header authorization`, `request body /api_key` */
  redacted: string[];
}

export interface ViewOptions {
  redactor: Redactor;
  /** base URL requests are forwarded to (the upstream), for exchanges the mock or the proxy answered too */
  upstream: string;
  /** most bytes a body is decoded to */
  maxDecodedBytes: number;
}

function bodyView(
  raw: Buffer,
  headers: HeaderList,
  where: string,
  o: ViewOptions,
  notes: string[],
  decode: boolean,
): BodyView {
  const mimeType = headerValue(headers, "content-type") ?? "";
  const decoded = decode
    ? decodeBody(raw, headerValue(headers, "content-encoding"), o.maxDecodedBytes)
    : { ok: true as const, bytes: raw };
  if (!decoded.ok) {
    return { mimeType, size: raw.length, text: raw.toString("base64"), encoding: "base64", note: decoded.reason };
  }
  const bytes = decoded.bytes;
  const text = isTextual(mimeType) || mimeType === "" ? utf8OrNull(bytes) : null;
  if (text === null) return { mimeType, size: bytes.length, text: bytes.toString("base64"), encoding: "base64" };
  let shown = text;
  if (/[/+]json\b/.test(mimeType) && text.length > 0) {
    try {
      const before = notes.length;
      const value = o.redactor.json(JSON.parse(text), where, notes);
      // re-serialised only when a field was redacted: otherwise the bytes stay the upstream's own
      if (notes.length > before) shown = JSON.stringify(value);
    } catch {
      // not JSON after all: kept as text, scrubbed below
    }
  } else if (/^application\/x-www-form-urlencoded\b/i.test(mimeType)) {
    // an OAuth token request: its code, verifier, client secret, refresh token
    shown = o.redactor.form(text, where, notes);
  }
  return { mimeType, size: bytes.length, text: shown };
}

export function redactedView(ex: Exchange, o: ViewOptions): RedactedView {
  const notes: string[] = [];
  const { redactor } = o;
  const path = redactor.path(ex.request.path, "request", notes);
  const requestHeaders = redactor.headers(ex.request.headers, "request", notes);
  const requestBody =
    ex.request.body.length > 0 ? bodyView(ex.request.body, ex.request.headers, "request body", o, notes, true) : null;
  let response: RedactedView["response"];
  if (ex.response) {
    const headers = redactor.headers(ex.response.headers, "response", notes);
    const body = bodyView(ex.response.body, ex.response.headers, "response body", o, notes, true);
    const truncated = ex.response.truncated;
    if (truncated)
      body.note = `only the first ${ex.response.body.length} of ${truncated.bytes} bytes were kept (capture limit)`;
    response = {
      status: ex.response.status,
      statusText: ex.response.statusText,
      httpVersion: ex.response.httpVersion,
      headers,
      body,
      wireSize: truncated?.bytes ?? ex.response.body.length,
    };
  }
  // scrubbed last, once every secret of the exchange (its response's cookies too) is known
  const scrubHeaders = (list: HeaderList): HeaderList => list.map(([k, v]) => [k, redactor.scrub(v)]);
  const scrubBody = (b: BodyView | null) => {
    if (b && b.encoding !== "base64") b.text = redactor.scrub(b.text);
  };
  scrubBody(requestBody);
  if (response) {
    response.headers = scrubHeaders(response.headers);
    scrubBody(response.body);
  }
  const base = (ex.upstream ?? o.upstream).replace(/\/+$/, "");
  return {
    method: ex.request.method,
    path: redactor.scrub(path),
    url: redactor.scrub(`${base}${path}`),
    httpVersion: ex.request.httpVersion,
    requestHeaders: scrubHeaders(requestHeaders),
    requestBody,
    response,
    redacted: notes,
  };
}
