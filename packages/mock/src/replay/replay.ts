// The mock's replay of recorded traffic (issue 28): `plumbline mock --replay FILE.har`, `startMock({ replay })`,
// `createMockHandlers({ replay })`. Loads HAR recordings (har-file.ts), judges every recorded answer against the
// spec when loading, and answers the platform's question "is there a recorded answer to this request?"
// (reference/platform/recorded-answers.ts), which the platform asks only once authentication, rate limits,
// validation and the price's hold have passed: the mock stays stateful while it replays.
//
// Matching (`match`): `exact` (default) is method, path, query and the body as canonical JSON (key order and
// whitespace ignored); `ignore-body` drops the body; `path` drops the query too. A recorded `[REDACTED]` value (a
// secret the recorder removed) matches any value. Requests that match the same recorded request get its recorded
// answers in recorded order, then the last one again and again.

import type { Contract, FieldError, OperationSpec } from "@plumbline-kit/contract";
import { type Exchange as JudgedExchange, judgeExchange } from "@plumbline-kit/contract/checks/index";
import type { FoundAnswer, RecordedAnswer, RecordedAnswers } from "@plumbline-kit/platform/recorded-answers";
import { baseUrlOf } from "@plumbline-kit/platform/request-state";
import { canonicalJson, hasRedacted, matchesRecorded, REDACTED } from "./canonical-json.ts";
import { DEFAULT_REPLAY_MAX_BYTES, type HarDocument, type HarEntry, ReplayFileError, readHar } from "./har-file.ts";

export type ReplayMatch = "exact" | "ignore-body" | "path";
export const REPLAY_MATCHES: readonly ReplayMatch[] = ["exact", "ignore-body", "path"];

/** A recording: a HAR file's path, or a HAR document already parsed. */
export type ReplaySource = string | HarDocument;

export interface ReplayOptions {
  /** how closely a request must match a recorded one (default `exact`) */
  match?: ReplayMatch;
  /** serve recorded answers that violate the spec too (they are reported either way) */
  serveInvalid?: boolean;
  /** largest file read (default 256 MiB) */
  maxBytes?: number;
  /** the mock's public base URL, for the recorded URLs it rewrites (default: the request's own host) */
  publicUrl?: string;
}

/** One entry of a recording, as the report names it. */
export interface ReplayEntryRef {
  /** the file's path (`<HAR object N>` for a document handed over parsed) */
  file: string;
  /** index in the file's `log.entries` */
  entry: number;
  method: string;
  path: string;
  status: number;
  operationId: string | null;
}

export type ReplaySkipReason = "no-answer" | "no-body" | "mock-state" | "not-replayed" | "request-refused";

export interface ReplaySkip extends ReplayEntryRef {
  reason: ReplaySkipReason;
  detail: string;
}

/** One problem of a recorded answer: the registry's rule behind it (absent: a header HTTP cannot carry). */
export type RecordedViolation = FieldError & { rule?: string };

export interface ReplayViolation extends ReplayEntryRef {
  /** what the recorded answer breaks: the contract registry's rules (status, content type, schema, headers, …) */
  errors: RecordedViolation[];
  /** whether it is served anyway (`replayInvalid`) */
  served: boolean;
}

/** What loading the recordings found. Violations are never silent: the CLI prints them, the API returns them. */
export interface ReplayReport {
  files: string[];
  match: ReplayMatch;
  /** entries read, over every file */
  entries: number;
  /** recorded answers the mock serves */
  answers: number;
  skipped: ReplaySkip[];
  invalid: ReplayViolation[];
}

export interface ReplayAnswerView extends ReplayEntryRef {
  source: string;
  /** times it was served since the start (or the last reset) */
  served: number;
}

export interface ReplayView {
  match: ReplayMatch;
  report: ReplayReport;
  answers: ReplayAnswerView[];
  /** the latest requests (at most 100) that a recorded answer could have answered but none matched */
  unmatched: Array<{ method: string; url: string; operationId: string | null }>;
}

export interface Replay extends RecordedAnswers {
  report: ReplayReport;
  view(): ReplayView;
  /** every recorded request back to its first answer (the mock's POST /__mock/reset) */
  reset(): void;
  /** what replaying holds: the recorded answers (fixed at start), the unmatched requests kept (at most
   * `maxUnmatched`, the newest) and the answers rebased on another URL (at most 16 per answer) */
  stats(): { answers: number; unmatched: number; maxUnmatched: number; rebased: number };
}

/** Headers the replay never sends from a recording: framing (its own server sets it), and what the mock sets itself
 * for this request from its own state (request id, rate-limit window, payment receipt, date). */
const NOT_REPLAYED_HEADERS = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "date",
  "x-request-id",
  "ratelimit",
  "ratelimit-policy",
  "payment-receipt",
  "set-cookie",
]);

/** Answers that are the recorded account's state, not the request's: the mock's own accounts decide them. */
const STATE_STATUSES = new Set([401, 402, 429]);

/** Where the zip of a deepcrawl task is downloaded (reference/platform/deepcrawl-link.ts). */
const ZIP_PATH = /^\/deepcrawl\/files\/[^/]+$/;

const MAX_UNMATCHED = 100;

interface StoredAnswer {
  ref: ReplayEntryRef;
  answer: RecordedAnswer;
  /** the base (origin, and base path if any) it was recorded from, when its JSON holds URLs on it (a zipUrl):
   * rewritten to the mock's */
  origin?: string;
  rebased?: Map<string, RecordedAnswer>;
  served: number;
}

interface Group {
  answers: StoredAnswer[];
  next: number;
}

interface RequestShape {
  method: string;
  path: string;
  query: Array<[string, string]>;
  body: unknown;
}

/** A request with a redacted value: matched value by value, not by its key. */
interface Pattern {
  shape: RequestShape;
  group: Group;
}

function normalizePath(pathname: string): string {
  // the platform's router ignores a trailing slash
  return pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
}

function queryPairs(params: URLSearchParams): Array<[string, string]> {
  // by name, repeats in the order sent (a stable sort)
  return [...params].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function keyOf(shape: RequestShape, match: ReplayMatch): string {
  const head = `${shape.method} ${shape.path}`;
  if (match === "path") return head;
  const query = shape.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  if (match === "ignore-body") return `${head}?${query}`;
  return `${head}?${query}\n${shape.body === undefined ? "" : canonicalJson(shape.body)}`;
}

function patternMatches(p: RequestShape, s: RequestShape, match: ReplayMatch): boolean {
  if (p.method !== s.method || p.path !== s.path) return false;
  if (match === "path") return true;
  if (p.query.length !== s.query.length) return false;
  for (let i = 0; i < p.query.length; i++) {
    const [pk, pv] = p.query[i];
    const [sk, sv] = s.query[i];
    if (pk !== sk || (pv !== REDACTED && pv !== sv)) return false;
  }
  return match === "ignore-body" || matchesRecorded(p.body, s.body);
}

function isJsonType(contentType: string | undefined): boolean {
  const ct = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return ct === "application/json" || ct.endsWith("+json");
}

/**
 * Where a recorded request goes on the mock: its operation, or the zip route. A recording of an upstream with a base
 * path (`https://host/v1/search`: the HAR records the URL forwarded to) is served at the mock's root: the base path
 * the recorder noted (`_plumbline.upstream`) is dropped, or, in a HAR from another tool, leading segments before a
 * path of the contract (`prefix`).
 */
function routeOf(
  contract: Contract,
  method: string,
  recordedPath: string,
  upstream: string | undefined,
): { path: string; prefix: string; op: OperationSpec | null; zip: boolean } {
  const base = basePathOf(upstream);
  if (base && (recordedPath === base || recordedPath.startsWith(`${base}/`))) {
    const path = recordedPath.slice(base.length) || "/";
    const zip = method === "GET" && ZIP_PATH.test(path);
    return { path, prefix: base, op: zip ? null : operationFor(contract, method, path), zip };
  }
  const segments = recordedPath.split("/");
  for (let drop = 0; drop < Math.min(segments.length - 1, 4); drop++) {
    const path = drop === 0 ? recordedPath : `/${segments.slice(drop + 1).join("/")}`;
    const zip = method === "GET" && ZIP_PATH.test(path);
    const op = zip ? null : operationFor(contract, method, path);
    if (zip || op) return { path, prefix: segments.slice(0, drop + 1).join("/"), op, zip };
  }
  return { path: recordedPath, prefix: "", op: null, zip: false };
}

/** The path of an upstream's base URL without its trailing slash ("" for none, or an unreadable URL). */
function basePathOf(upstream: string | undefined): string {
  if (!upstream) return "";
  try {
    return new URL(upstream).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/** The contract operation a recorded method and path belong to (templates matched segment by segment). */
function operationFor(contract: Contract, method: string, path: string): OperationSpec | null {
  const segments = path.split("/");
  return (
    contract.contractOperations.find((o) => {
      if (o.method.toUpperCase() !== method) return false;
      const t = o.path.split("/");
      return (
        t.length === segments.length && t.every((s, i) => (s.startsWith("{") ? segments[i] !== "" : s === segments[i]))
      );
    }) ?? null
  );
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
/** RFC 9110 token; and what Node's checkInvalidHeaderChar refuses in a value */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const BAD_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Loads recordings, merged in the order given (a request recorded in several files gets its answers file by file). */
export async function loadReplay(
  sources: ReplaySource | ReplaySource[],
  contract: Contract,
  options: ReplayOptions = {},
): Promise<Replay> {
  const match = options.match ?? "exact";
  if (!REPLAY_MATCHES.includes(match))
    throw new Error(`replay match takes ${REPLAY_MATCHES.join(", ")}, not "${match}"`);
  const serveInvalid = options.serveInvalid ?? false;
  const list = Array.isArray(sources) ? sources : [sources];
  const report: ReplayReport = { files: [], match, entries: 0, answers: 0, skipped: [], invalid: [] };
  const groups = new Map<string, Group>();
  const patterns: Pattern[] = [];
  const stored: StoredAnswer[] = [];
  let objects = 0;

  for (const source of list) {
    const name = typeof source === "string" ? source : `<HAR object ${++objects}>`;
    const har = await readHar(source, contract, options.maxBytes ?? DEFAULT_REPLAY_MAX_BYTES, name);
    report.files.push(name);
    har.log.entries.forEach((entry, index) => {
      report.entries++;
      const read = readEntry(contract, name, index, entry, serveInvalid, report);
      if (!read) return;
      const { shape, answer } = read;
      stored.push(answer);
      report.answers++;
      const key = keyOf(shape, match);
      const redacted =
        match !== "path" &&
        (shape.query.some(([, v]) => v === REDACTED) || (match === "exact" && hasRedacted(shape.body)));
      let group = groups.get(key);
      if (!group) {
        group = { answers: [], next: 0 };
        groups.set(key, group);
        if (redacted) patterns.push({ shape, group });
      }
      group.answers.push(answer);
    });
  }
  let unmatched: ReplayView["unmatched"] = [];

  /** The answer with the URLs on its recorded origin pointed at the mock's base (HAR conventions, addendum). */
  function rebase(s: StoredAnswer, base: string): RecordedAnswer {
    const origin = s.origin as string;
    if (base === origin) return s.answer;
    s.rebased ??= new Map();
    let answer = s.rebased.get(base);
    if (!answer) {
      const text = s.answer.body.toString("utf8");
      // whole JSON strings that start with the origin: "http://host:port/…" and "http://host:port"
      const body = text.split(`"${origin}/`).join(`"${base}/`).split(`"${origin}"`).join(`"${base}"`);
      answer = { ...s.answer, body: Buffer.from(body) };
      // bounded: one per base URL the mock is reached on
      if (s.rebased.size < 16) s.rebased.set(base, answer);
    }
    return answer;
  }

  return {
    report,
    find(req, operationId, body): FoundAnswer | null {
      const url = new URL(req.url, "http://mock.invalid");
      const shape: RequestShape = {
        method: req.method.toUpperCase(),
        path: normalizePath(url.pathname),
        query: queryPairs(url.searchParams),
        body,
      };
      const group =
        groups.get(keyOf(shape, match)) ?? patterns.find((p) => patternMatches(p.shape, shape, match))?.group;
      if (!group) {
        unmatched.push({ method: shape.method, url: req.url, operationId });
        if (unmatched.length > MAX_UNMATCHED) unmatched = unmatched.slice(-MAX_UNMATCHED);
        return null;
      }
      const s = group.answers[Math.min(group.next, group.answers.length - 1)];
      const answer = s.origin ? rebase(s, baseUrlOf(req, options.publicUrl)) : s.answer;
      let taken = false;
      return {
        answer,
        take() {
          if (taken) return;
          taken = true;
          group.next = Math.min(group.next + 1, group.answers.length);
          s.served++;
        },
      };
    },
    view: () => ({
      match,
      report,
      answers: stored.map((s) => ({ ...s.ref, source: s.answer.source, served: s.served })),
      unmatched: [...unmatched],
    }),
    reset() {
      for (const g of groups.values()) g.next = 0;
      for (const s of stored) s.served = 0;
      unmatched = [];
    },
    stats() {
      let rebased = 0;
      for (const s of stored) rebased += s.rebased?.size ?? 0;
      return { answers: stored.length, unmatched: unmatched.length, maxUnmatched: MAX_UNMATCHED, rebased };
    },
  };
}

/** One entry: its request's shape and its answer, or null when it is skipped or invalid (noted in the report). */
function readEntry(
  contract: Contract,
  file: string,
  index: number,
  entry: HarEntry,
  serveInvalid: boolean,
  report: ReplayReport,
): { shape: RequestShape; answer: StoredAnswer } | null {
  const where = `log.entries[${index}]`;
  let url: URL;
  try {
    url = new URL(entry.request.url);
  } catch {
    throw new ReplayFileError(
      file,
      `${where}.request.url is not an absolute URL: ${JSON.stringify(entry.request.url)}`,
    );
  }
  const method = entry.request.method.toUpperCase();
  const { path, prefix, op, zip } = routeOf(contract, method, normalizePath(url.pathname), entry._plumbline?.upstream);
  const status = entry.response.status;
  const ref: ReplayEntryRef = {
    file,
    entry: index,
    method,
    path,
    status,
    operationId: zip ? null : (op?.operationId ?? null),
  };
  const skip = (reason: ReplaySkipReason, detail: string) => {
    report.skipped.push({ ...ref, reason, detail });
    return null;
  };

  if (status === 0 || entry._plumbline?.error)
    return skip("no-answer", `no answer was recorded${entry._plumbline?.error ? `: ${entry._plumbline.error}` : ""}`);
  if (!zip && !(op && (op.pricing || op.operationId === "deepcrawlStatus"))) {
    return skip(
      "not-replayed",
      op
        ? `${op.operationId} is answered by the mock itself (balances, health and documents are its own state)`
        : "not an operation of the contract; the mock answers it itself",
    );
  }
  if (STATE_STATUSES.has(status))
    return skip(
      "mock-state",
      `a ${status} is the recorded account's state: the mock's own keys, balances and rate limits decide it`,
    );

  const text = entry.request.postData?.text;
  let body: unknown;
  if (text !== undefined && text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (op?.pricing) {
    const check = contract.validators.checkBody(op.operationId, body);
    if (!check.ok)
      return skip(
        "request-refused",
        "the mock refuses this request itself (its own 400/422 comes before any recorded answer)",
      );
  }

  const content = entry.response.content;
  if (content.text === undefined && (content.size ?? 0) > 0)
    return skip("no-body", "the recording holds no body for this answer (response.content.text is absent)");
  let bytes: Buffer;
  if (content.encoding === undefined || content.encoding === "") bytes = Buffer.from(content.text ?? "", "utf8");
  else if (content.encoding === "base64") {
    if (!BASE64.test(content.text ?? ""))
      throw new ReplayFileError(file, `${where}.response.content.text is not base64 though its encoding says so`);
    bytes = Buffer.from(content.text ?? "", "base64");
  } else
    throw new ReplayFileError(
      file,
      `${where}.response.content.encoding ${JSON.stringify(content.encoding)} is not one replay reads (base64, or none)`,
    );

  // `_plumbline.redacted` names them `response header NAME` (the proxy's recorder) or just `NAME`
  const redacted = new Set(
    (entry._plumbline?.redacted ?? []).map((n) => n.toLowerCase().replace(/^response header /, "")),
  );
  const headers: Array<[string, string]> = [];
  const unsendable: RecordedViolation[] = [];
  for (const h of entry.response.headers ?? []) {
    const name = h.name.toLowerCase();
    if (name.startsWith(":") || NOT_REPLAYED_HEADERS.has(name) || redacted.has(name) || h.value.includes(REDACTED))
      continue;
    // what Node refuses to send (a hostile or hand-edited file): reported, never sent
    if (!HEADER_NAME.test(name) || BAD_HEADER_VALUE.test(h.value)) {
      unsendable.push({
        field: `/headers/${name}`,
        message: `header ${JSON.stringify(name)} cannot be sent (characters HTTP does not allow)`,
        code: "header",
      });
      continue;
    }
    headers.push([name, h.value]);
  }
  let contentType = headers.find(([n]) => n === "content-type")?.[1];
  if (contentType === undefined && content.mimeType && bytes.length > 0) {
    contentType = content.mimeType;
    headers.push(["content-type", contentType]);
  }

  const errors = recordedViolations(contract, {
    request: {
      method,
      path: `${path}${url.search}`,
      // the recorded request id is not replayed (the mock echoes the id of the request it serves): not judged here
      headers: Object.fromEntries(
        (entry.request.headers ?? [])
          .map((h) => [h.name.toLowerCase(), h.value])
          .filter(([name]) => !NOT_REPLAYED_HEADERS.has(name)),
      ),
      body: text ?? "",
    },
    response: { status, headers: headerValues(headers), body: bytes },
    operationId: zip ? undefined : (op?.operationId ?? null),
  });
  errors.push(...unsendable);
  if (errors.length) {
    // a status HTTP has no answer for is never served, whatever the option says
    const servable = serveInvalid && status >= 200 && status <= 599;
    report.invalid.push({ ...ref, errors, served: servable });
    if (!servable) return null;
  }
  // absolute URLs of the upstream recorded in the answer (a deepcrawl's zipUrl) are pointed at the mock when served,
  // so a client fetches them from it (HAR conventions, addendum)
  const recordedBase = `${url.origin}${prefix}`;
  const onOrigin = isJsonType(contentType) && bytes.includes(`"${recordedBase}`);
  return {
    shape: { method, path, query: queryPairs(url.searchParams), body },
    answer: {
      ref,
      answer: { status, headers, body: bytes, source: `${file}#${index}` },
      served: 0,
      ...(onOrigin ? { origin: recordedBase } : {}),
    },
  };
}

/** Headers as the registry reads them: by lower-case name, a repeated one keeping every value. */
function headerValues(headers: Array<[string, string]>): Record<string, string | string[]> {
  const byName: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const had = byName[name];
    byName[name] = had === undefined ? value : [...[had].flat(), value];
  }
  return byName;
}

/**
 * A recorded answer judged as every judge judges one: the contract registry's rules on the answer's side
 * (spec/checks: listed status, content type, schema, headers, batch arithmetic, echoes, the error shape, content
 * rules; a deepcrawl zip readable). Each finding is an `errors[]`-style item: the field when the rule names one, the
 * schema keyword or the rule as its code.
 */
export function recordedViolations(contract: Contract, exchange: JudgedExchange): RecordedViolation[] {
  return judgeExchange(contract, exchange, { side: "response" }).map((v) => ({
    field: v.field ?? "",
    message: v.message,
    code: v.code ?? v.rule,
    rule: v.rule,
  }));
}
