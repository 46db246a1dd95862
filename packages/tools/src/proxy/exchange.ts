// One request/response pair as the proxy saw it: the seam between the proxy (which forwards and judges) and what
// consumes its traffic (the HAR recorder, the violation report). Headers keep their order and repeats; bodies are
// the bytes on the wire (a compressed answer stays compressed here: a consumer decompresses, knowing the encoding).

export type HeaderList = Array<[name: string, value: string]>;

export interface ExchangeRequest {
  method: string;
  /** path and query exactly as the client sent them, e.g. `/search?x=1` */
  path: string;
  httpVersion: string;
  headers: HeaderList;
  body: Buffer;
  /** set when the body never arrived whole (too large, cut off, not in time): the proxy's refusal code; `body` is
   * empty then, and the request is not judged against its schema */
  unread?: string;
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: HeaderList;
  /** as received from whoever answered (still Content-Encoding'd if it was) */
  body: Buffer;
  /** set when the body passed the proxy's capture limit: `body` holds its first bytes only, `bytes` all that came */
  truncated?: { bytes: number };
}

export interface Exchange {
  /** increasing from 1 in the order requests arrived at the proxy */
  id: number;
  /** epoch ms when the request arrived */
  startedAt: number;
  /** HAR-style phases in ms: sending the request upstream, waiting for the first byte, reading the answer */
  timings: { send: number; wait: number; receive: number };
  /** base URL of the upstream the request was forwarded to; absent when the proxy or the mock answered itself */
  upstream?: string;
  /** who produced the answer: the upstream, the embedded mock (hybrid mode), or the proxy itself (--errors 422) */
  servedBy: "upstream" | "mock" | "proxy";
  /** the contract operation the request matched, when it matched one */
  operationId?: string;
  request: ExchangeRequest;
  /** absent when no answer came (upstream refused, reset or timed out): see `error` */
  response?: ExchangeResponse;
  error?: string;
  /**
   * whether another request with the same credential (Authorization header) was in flight at some moment while this
   * one was: the balance rule skips a read that overlapped a call, since their order is then unknown
   */
  concurrent?: boolean;
  /** hybrid mode: why the mock answered instead of the upstream (`upstream answered 502`, `upstream did not answer: …`) */
  fallbackFrom?: string;
}

/** Anything that takes the proxy's exchanges as they complete. `add` must not throw and must not block. */
export interface ExchangeSink {
  add(exchange: Exchange): void;
}
