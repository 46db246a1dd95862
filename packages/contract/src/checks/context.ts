// An exchange resolved once for every rule: its operation, its headers by name, its JSON parsed.
import type { Contract } from "../contract.ts";
import { normalizeContentType } from "../validators.ts";
import { createOperationMatcher, DEEPCRAWL_ZIP_PATH, type OperationMatcher } from "./operation-match.ts";
import type { Exchange, ExchangeContext, HeaderValues } from "./types.ts";

const matchers = new WeakMap<Contract, OperationMatcher>();

/** The contract's operation matcher, built once per contract. */
export function matcherOf(contract: Contract): OperationMatcher {
  let m = matchers.get(contract);
  if (!m) {
    m = createOperationMatcher(contract);
    matchers.set(contract, m);
  }
  return m;
}

export const isJsonType = (ct: string) => /[/+]json\b/.test(ct);

/** Headers by lower-case name, repeats joined with ", ". */
export function joinedHeaders(headers: HeaderValues | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

const text = (b: Uint8Array | string) => (typeof b === "string" ? b : Buffer.from(b).toString("utf8"));
const bytesOf = (b: Uint8Array | string) => (typeof b === "string" ? Buffer.from(b, "utf8") : b);

export function createContext(contract: Contract, exchange: Exchange): ExchangeContext {
  const path = exchange.request.path.split("?")[0];
  let op = null;
  let params: Record<string, string> = exchange.pathParams ?? {};
  if (exchange.operationId) {
    op = contract.findOperation(exchange.operationId) ?? null;
    if (op && !exchange.pathParams) params = matcherOf(contract)(exchange.request.method, path)?.params ?? {};
  } else {
    const m = matcherOf(contract)(exchange.request.method, path);
    op = m?.op ?? null;
    if (m && !exchange.pathParams) params = m.params;
  }
  const route = op
    ? op.operationId
    : exchange.request.method.toUpperCase() === "GET" && DEEPCRAWL_ZIP_PATH.test(path)
      ? "deepcrawl-zip"
      : null;

  let sentKnown = false;
  let sent: unknown;
  if (exchange.request.unknown) {
    sentKnown = false;
  } else if ("json" in exchange.request) {
    sentKnown = true;
    sent = exchange.request.json;
  } else if (exchange.request.body !== undefined) {
    sentKnown = true;
    const t = text(exchange.request.body);
    if (t !== "")
      try {
        sent = JSON.parse(t);
      } catch {
        sent = undefined;
      }
  }

  const r = exchange.response;
  const headers = joinedHeaders(r?.headers);
  const contentType = normalizeContentType(headers["content-type"]);
  const whole = r && !r.truncated && r.body !== undefined ? bytesOf(r.body) : null;
  let json: ExchangeContext["json"] = null;
  if (r && !r.truncated && isJsonType(contentType)) {
    if ("json" in r && r.json !== undefined) json = { ok: true, value: r.json };
    else if (r.body !== undefined) {
      try {
        json = { ok: true, value: JSON.parse(text(r.body)) };
      } catch (err) {
        json = { ok: false, reason: `the body is not valid JSON (${(err as Error).message})` };
      }
    }
  }
  const memos = new Map<string, unknown>();
  return {
    contract,
    exchange,
    op,
    route,
    params,
    sent,
    sentKnown,
    status: r?.status ?? null,
    requestHeaders: joinedHeaders(exchange.request.headers),
    headers,
    headerValues: r?.headers ?? {},
    contentType,
    bytes: whole,
    json,
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
  };
}
