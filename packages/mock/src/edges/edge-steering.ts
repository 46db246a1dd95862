// Steering the mock into one edge of the contract (contract/edges/catalogue.ts) for every request the edge applies
// to, and recording which requests it altered (`GET /__mock/edge`), so `plumbline edges` can tell a client that
// never met the edge ("not exercised") from one that passed it. Each edge is expressed with the mock's own
// steering: a Prefer preference added to the request (code=, latency=, fault=reset, deepcrawl=failed), a failed
// batch entry, deepcrawl step durations on the manual clock, or a change of the JSON answer that the document
// allows. Options: `startMock({ edge: { id } })`.
import type { Contract, ErrorCode } from "@plumbline-kit/contract";
import { edgeById } from "@plumbline-kit/contract/edges/catalogue";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { MockState } from "../mock-state.ts";
import { codeForStatus } from "../steered-response.ts";

export interface EdgeOptions {
  /** the edge to steer into (an id of the catalogue); null or absent: none (a baseline run) */
  id?: string | null;
  /** with a manual clock, every deepcrawl status poll advances it this much first (a task then completes after a
   * few polls, however fast the client polls); the `deepcrawl-slow` edge uses its own step */
  advanceClockPerPollMs?: number;
}

/** One request the edge altered, and how. */
export interface AlteredRequest {
  method: string;
  url: string;
  operationId: string;
  /** the answer's status; null when there was none (a dropped connection) */
  status: number | null;
  change: string;
}

export interface EdgeView {
  edge: string | null;
  /** requests altered (all of them, though `altered` keeps the first 1000) */
  count: number;
  altered: AlteredRequest[];
  /** the contract's operations the run called, whether the edge applies to them or not, in the order first called */
  operations: string[];
}

export interface EdgeRecorder {
  view(): EdgeView;
  clear(): void;
}

const KEPT = 1000;
const EXTRA = "x_plumbline_edge";
const LARGEST_PAGE_BYTES = 5 * 1024 * 1024;
const NON_LATIN = "مرحبا بالعالم · שלום עולם · 你好，世界 · Привет · 🌍";
const SLOW_STEPS = { queuedMs: 30_000, waitingMs: 60_000, processingMs: 210_000 };
const SLOW_POLL_MS = 10_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** What an edge does to a request before it is served: a Prefer preference to add, and its description. */
interface RequestChange {
  prefer: string;
  change: string;
}

interface Steering {
  /** before the request is served (the mock's Prefer steering runs next) */
  request?(operationId: string): RequestChange | null;
  /** a batch entry's fault */
  batchEntry?(operationId: string, index: number): ErrorCode | null;
  /** the JSON answer of a served request (any status), changed in place; the description, or null when unchanged */
  answer?(operationId: string, body: unknown, status: number): string | null;
  /** the answer's headers */
  headers?(reply: FastifyReply, altered: boolean): string | null;
}

/** The single answers and batch entries' data of a search, news or crawl answer (a batch is `{results:[entry]}`). */
function answers(body: unknown): Json[] {
  if (!isObject(body)) return [];
  const results = body.results;
  if (Array.isArray(results) && results.length > 0 && results.every((e) => isObject(e) && "cost" in e))
    return results.filter((e) => isObject(e.data)).map((e) => e.data as Json);
  return [body];
}

const listOf = (a: Json): Json[] => (Array.isArray(a.results) ? (a.results.filter(isObject) as Json[]) : []);

function steering(id: string, contract: Contract): Steering {
  const PAID = new Set(["search", "news", "crawl", "screenshot", "sitemap", "trending", "extract", "deepcrawl"]);
  let firstPaid = true;
  const seen = new Set<string>();
  const firstOfEach = (operationId: string) => {
    if (seen.has(operationId)) return false;
    seen.add(operationId);
    return true;
  };
  const onFirstPaid = (prefer: string, change: string): Steering => ({
    request(operationId) {
      if (!PAID.has(operationId) || !firstPaid) return null;
      firstPaid = false;
      return { prefer, change };
    },
  });
  const onFirstOf = (status: number): Steering => ({
    request: (operationId) =>
      firstOfEach(operationId) ? { prefer: `code=${status}`, change: `answered ${status} (first call)` } : null,
  });
  switch (id) {
    case "rate-limited": {
      const s = onFirstPaid("code=429", "answered 429 with Retry-After: 1 (first paid call)");
      return {
        ...s,
        headers(reply, altered) {
          if (!altered || reply.statusCode !== 429) return null;
          reply.header("retry-after", "1");
          reply.header("ratelimit", '"default";r=0;t=1');
          return null;
        },
      };
    }
    case "credits-run-out-mid-batch":
      return { batchEntry: (_op, index) => (index >= 1 ? codeForStatus(402) : null) };
    case "batch-entry-failed":
      return { batchEntry: (_op, index) => (index === 0 ? codeForStatus(502) : null) };
    case "deepcrawl-failed":
      return {
        request: (op) =>
          op === "deepcrawl" ? { prefer: "deepcrawl=failed", change: "the task will end failed" } : null,
      };
    case "deepcrawl-slow":
      return {
        request: (op) =>
          op === "deepcrawl"
            ? { prefer: "", change: "the task takes 5 minutes of the mock's clock (10 s a poll)" }
            : null,
      };
    case "task-not-found":
      return {
        request: (op) =>
          op === "deepcrawlStatus" ? { prefer: "code=404", change: "answered 404 status not_found" } : null,
      };
    case "trending-description-null":
      return {
        answer(op, body, status) {
          if (op !== "trending" || status !== 200 || !isObject(body)) return null;
          const results = listOf(body);
          for (const r of results) r.description = null;
          return results.length ? "every description null" : null;
        },
      };
    case "zero-results":
      return {
        answer(op, body, status) {
          if (!["search", "news", "trending"].includes(op) || status !== 200) return null;
          let changed = false;
          for (const a of answers(body)) {
            if (!Array.isArray(a.results)) continue;
            a.results = [];
            if (Array.isArray(a.images)) a.images = [];
            changed = true;
          }
          return changed ? "no results" : null;
        },
      };
    case "fewer-results":
      return {
        answer(op, body, status) {
          if (!["search", "news", "trending"].includes(op) || status !== 200) return null;
          let changed = false;
          for (const a of answers(body)) {
            if (!Array.isArray(a.results) || a.results.length < 2) continue;
            a.results = a.results.slice(0, 1);
            changed = true;
          }
          return changed ? "one result" : null;
        },
      };
    case "optional-fields-absent":
      return {
        answer(op, body, status) {
          if (status !== 200) return null;
          let changed = false;
          const drop = (o: Json, key: string) => {
            if (key in o) {
              delete o[key];
              changed = true;
            }
          };
          if (op === "deepcrawlStatus" && isObject(body)) {
            for (const k of ["message", "error", "r2Key"]) drop(body, k);
            if (body.status !== "completed" && body.zipUrl === undefined) {
              body.zipUrl = null;
              changed = true;
            }
          } else if (op === "search" || op === "news") {
            for (const a of answers(body)) {
              drop(a, "images");
              for (const r of listOf(a)) drop(r, "content");
            }
          } else if (op === "crawl") {
            for (const a of answers(body)) if (isObject(a.results)) drop(a.results, "metadata");
          } else if (op === "trending" && isObject(body)) {
            for (const r of listOf(body)) drop(r, "description");
          }
          return changed ? "optional fields left out" : null;
        },
      };
    case "extra-properties":
      return { answer: (op, body, status) => (addExtras(contract, op, status, body) ? "extra properties" : null) };
    case "upstream-502":
      return onFirstOf(502);
    case "screenshot-503":
      return onFirstOf(503);
    case "screenshot-504":
      return onFirstOf(504);
    case "slow-answer":
      return onFirstPaid("latency=5000", "answered after 5 s (first paid call)");
    case "connection-reset":
      return onFirstPaid("fault=reset", "connection dropped (first paid call)");
    case "non-latin-text":
      return {
        answer(op, body, status) {
          if (status !== 200) return null;
          let changed = false;
          const mark = (o: Json, key: string) => {
            if (typeof o[key] === "string") {
              o[key] = `${NON_LATIN} ${o[key]}`;
              changed = true;
            }
          };
          for (const a of answers(body)) {
            const items = op === "crawl" ? (isObject(a.results) ? [a.results] : []) : listOf(a);
            for (const r of items) for (const k of ["title", "snippet", "description", "content"]) mark(r, k);
          }
          return changed ? "non-Latin and right-to-left text" : null;
        },
      };
    case "largest-crawl-page":
      return {
        answer(op, body, status) {
          if (op !== "crawl" || status !== 200) return null;
          const page = answers(body)
            .map((a) => a.results)
            .find(isObject);
          if (!page || typeof page.content !== "string") return null;
          const unit = `${page.content}\n\n`;
          // the synthetic text is ASCII: as many characters as bytes
          page.content = unit.repeat(Math.ceil(LARGEST_PAGE_BYTES / unit.length)).slice(0, LARGEST_PAGE_BYTES);
          return "5 MiB of content";
        },
      };
    case "ratelimit-near-exhaustion":
      return {
        headers(reply) {
          // also where the mock's own limiting is off (`plumbline edges` turns it off)
          if (reply.getHeader("ratelimit-policy") === undefined) {
            const { perAccount, windowSeconds } = contract.rateLimits;
            reply.header("ratelimit-policy", `"default";q=${perAccount};w=${windowSeconds}`);
          }
          reply.header("ratelimit", '"default";r=1;t=1');
          return "RateLimit r=1";
        },
      };
    default:
      throw new Error(`unknown edge ${JSON.stringify(id)}`);
  }
}

/**
 * Adds an extra property to every object of the answer where the document allows one: the property is added
 * everywhere, then removed wherever the response schema refuses it. True when some stayed.
 */
function addExtras(contract: Contract, operationId: string, status: number, body: unknown): boolean {
  if (!isObject(body) && !Array.isArray(body)) return false;
  const added: Json[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (isObject(v)) {
      for (const x of Object.values(v)) walk(x);
      v[EXTRA] = "an extra property";
      added.push(v);
    }
  };
  walk(body);
  const check = () =>
    contract.validators.checkResponse(operationId, status, "application/json", body) ?? ([] as { field: string }[]);
  for (let round = 0; round < 8; round++) {
    const refused = check().filter((e) => e.field.endsWith(`/${EXTRA}`));
    if (refused.length === 0) break;
    for (const e of refused) {
      const target = pointer(body, e.field.slice(0, -EXTRA.length - 1));
      if (isObject(target)) delete target[EXTRA];
    }
  }
  if (check().length > 0) {
    // the schema is not satisfied by any placement found: leave the answer as it was
    for (const o of added) delete o[EXTRA];
    return false;
  }
  return added.some((o) => EXTRA in o);
}

function pointer(root: unknown, path: string): unknown {
  if (path === "") return root;
  let at: unknown = root;
  for (const raw of path.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(at)) at = at[Number(token)];
    else if (isObject(at)) at = at[token];
    else return undefined;
  }
  return at;
}

/** The deepcrawl step durations an edge needs (startMock's `deepcrawlSteps`), if any. */
export function edgeDeepcrawlSteps(id: string | null | undefined) {
  return id === "deepcrawl-slow" ? SLOW_STEPS : undefined;
}

/**
 * Installs the edge: before the mock's Prefer steering (`installSteering`), so the preference it adds is read
 * there. Returns the recorder and the batch entry fault start-mock.ts consults.
 */
export function installEdge(
  app: FastifyInstance,
  contract: Contract,
  state: MockState,
  options: EdgeOptions,
): {
  recorder: EdgeRecorder;
  batchEntryFault(operationId: string, index: number, req: FastifyRequest): ErrorCode | null;
} {
  const id = options.id ?? null;
  if (id !== null && !edgeById(id)) throw new Error(`unknown edge ${JSON.stringify(id)}`);
  const applies = new Set(id === null ? [] : (edgeById(id)?.operations ?? []));
  const make = () => (id === null ? ({} as Steering) : steering(id, contract));
  let steer = make();
  let count = 0;
  let kept: AlteredRequest[] = [];
  let called = new Set<string>();
  const records = new WeakMap<FastifyRequest, AlteredRequest>();
  const pollMs = id === "deepcrawl-slow" ? SLOW_POLL_MS : options.advanceClockPerPollMs;
  if (id === "deepcrawl-slow") state.deepcrawl.setSteps(SLOW_STEPS);

  const record = (req: FastifyRequest, operationId: string, change: string, status: number | null) => {
    const existing = records.get(req);
    if (existing) {
      if (!existing.change.includes(change)) existing.change += `; ${change}`;
      return;
    }
    const r: AlteredRequest = { method: req.method, url: req.url, operationId, status, change };
    records.set(req, r);
    count += 1;
    if (kept.length < KEPT) kept.push(r);
  };
  const operationOf = (req: FastifyRequest): string | undefined => req.routeOptions.config.operationId;

  app.addHook("onRequest", (req, _reply, done) => {
    const operationId = operationOf(req);
    // back to the start with the rest of the mock: nothing altered, the first calls first again
    if (req.method === "POST" && req.url === "/__mock/reset") recorder.clear();
    if (!operationId) return done();
    called.add(operationId);
    if (operationId === "deepcrawlStatus" && pollMs && state.clock.mode === "manual") state.clock.advance(pollMs);
    if (!applies.has(operationId) || !steer.request) return done();
    const change = steer.request(operationId);
    if (change) {
      if (change.prefer) {
        const had = req.headers.prefer;
        req.headers.prefer = had ? `${Array.isArray(had) ? had.join(", ") : had}, ${change.prefer}` : change.prefer;
      }
      record(req, operationId, change.change, null);
    }
    done();
  });

  if (steer.answer || steer.headers || id !== null)
    app.addHook("onSend", (req, reply, payload, done) => {
      const operationId = operationOf(req);
      if (!operationId || !applies.has(operationId)) return done(null, payload);
      const altered = records.has(req);
      const headerChange = steer.headers?.(reply, altered);
      if (headerChange) record(req, operationId, headerChange, reply.statusCode);
      const type = String(reply.getHeader("content-type") ?? "");
      const text = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString() : null;
      if (!steer.answer || text === null || !/json/.test(type)) return done(null, payload);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return done(null, payload);
      }
      const change = steer.answer(operationId, body, reply.statusCode);
      if (!change) return done(null, payload);
      record(req, operationId, change, reply.statusCode);
      done(null, JSON.stringify(body));
    });

  app.addHook("onResponse", (req, reply, done) => {
    const r = records.get(req);
    if (r) r.status = reply.statusCode;
    done();
  });

  app.get("/__mock/edge", async () => recorder.view());

  const recorder: EdgeRecorder = {
    view: () => ({ edge: id, count, altered: kept.map((r) => ({ ...r })), operations: [...called] }),
    clear() {
      count = 0;
      kept = [];
      called = new Set();
      steer = make();
      if (id === "deepcrawl-slow") state.deepcrawl.setSteps(SLOW_STEPS);
    },
  };
  return {
    recorder,
    batchEntryFault(operationId, index, req) {
      if (!applies.has(operationId) || !steer.batchEntry) return null;
      const code = steer.batchEntry(operationId, index);
      if (code)
        record(req, operationId, `batch entry ${index} failed ${id === "batch-entry-failed" ? 502 : 402}`, null);
      return code;
    },
  };
}
