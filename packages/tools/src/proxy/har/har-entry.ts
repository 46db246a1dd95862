// One exchange as a HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/), following the conventions the
// recorder and the mock's replay share (docs/proxy.md, "Recording format").
import type { Entry, Har, Header, QueryString } from "har-format";
import type { Exchange, HeaderList } from "../exchange.ts";
import type { RedactedView } from "../redacted-view.ts";

export interface PlumblineEntryMeta {
  id: number;
  /** base URL of the upstream the request was forwarded to (its path is the base path replay strips) */
  upstream?: string;
  operationId?: string;
  servedBy: Exchange["servedBy"];
  redacted: string[];
  error?: string;
  fallbackFrom?: string;
}

/** A HAR entry with plumbline's custom field (HAR allows `_`-prefixed ones). */
export type PlumblineEntry = Entry & { _plumbline: PlumblineEntryMeta };
export type PlumblineHar = Omit<Har, "log"> & { log: Omit<Har["log"], "entries"> & { entries: PlumblineEntry[] } };

const harHeaders = (list: HeaderList): Header[] => list.map(([name, value]) => ({ name, value }));
const round = (ms: number) => Math.max(0, Math.round(ms * 1000) / 1000);
const httpVersion = (v: string) => `HTTP/${v}`;

function queryString(url: string): QueryString[] {
  const q = url.indexOf("?");
  if (q < 0) return [];
  return [...new URLSearchParams(url.slice(q + 1))].map(([name, value]) => ({ name, value }));
}

export function harEntry(ex: Exchange, view: RedactedView): PlumblineEntry {
  // an answer kept only in part is recorded as no answer (status 0, with why): replay must not serve half a body
  const truncated = ex.response?.truncated;
  const error =
    ex.error ??
    (truncated
      ? `answer of ${truncated.bytes} bytes passed the capture limit (${ex.response?.body.length} bytes): not recorded`
      : undefined);
  const send = round(ex.timings.send);
  const wait = round(ex.timings.wait);
  const receive = round(ex.timings.receive);
  const r = truncated || ex.error ? undefined : view.response;
  const entry: PlumblineEntry = {
    startedDateTime: new Date(ex.startedAt).toISOString(),
    time: round(send + wait + receive),
    request: {
      method: view.method,
      url: view.url,
      httpVersion: httpVersion(view.httpVersion),
      cookies: [],
      headers: harHeaders(view.requestHeaders),
      queryString: queryString(view.url),
      headersSize: -1,
      bodySize: ex.request.body.length,
      ...(view.requestBody
        ? {
            postData: {
              mimeType: view.requestBody.mimeType,
              text: view.requestBody.text,
              ...(view.requestBody.encoding ? { comment: "base64" } : {}),
            },
          }
        : {}),
    },
    response: r
      ? {
          status: r.status,
          statusText: r.statusText,
          httpVersion: httpVersion(r.httpVersion),
          cookies: [],
          headers: harHeaders(r.headers),
          content: {
            size: r.body.size,
            mimeType: r.body.mimeType,
            text: r.body.text,
            ...(r.body.encoding ? { encoding: r.body.encoding } : {}),
            ...(r.body.size !== r.wireSize ? { compression: r.body.size - r.wireSize } : {}),
            ...(r.body.note ? { comment: r.body.note } : {}),
          },
          redirectURL: r.headers.find(([k]) => k.toLowerCase() === "location")?.[1] ?? "",
          headersSize: -1,
          bodySize: r.wireSize,
        }
      : {
          status: 0,
          statusText: "",
          httpVersion: "",
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: "" },
          redirectURL: "",
          headersSize: -1,
          bodySize: -1,
        },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send, wait, receive },
    _plumbline: {
      id: ex.id,
      ...(ex.upstream ? { upstream: ex.upstream } : {}),
      ...(ex.operationId ? { operationId: ex.operationId } : {}),
      servedBy: ex.servedBy,
      redacted: view.redacted,
      ...(error ? { error } : {}),
      ...(ex.fallbackFrom ? { fallbackFrom: ex.fallbackFrom } : {}),
    },
  };
  return entry;
}
