// One executor per paid operation: request in, engine result out. Handlers stay thin (style 4).
import type { LiveSchemas, Schemas } from "@plumbline-kit/contract";
import type { DeepcrawlService } from "./deepcrawl-service.ts";
import type { EngineContext, EngineResult, Engines } from "./engines.ts";
import type { Account } from "./stores.ts";
import { targetUrlRefusal } from "./target-url.ts";

export interface Produced {
  status: number;
  contentType: string;
  payload: unknown;
  /** the payload's JSON as UTF-8 bytes, when an engine attached it (PRESERIALIZED); sent as is by a single call */
  serialized?: Buffer;
}

export interface ExecutionContext {
  engine: EngineContext;
  account: Account;
}

export type Executor = (body: unknown, ctx: ExecutionContext) => Promise<EngineResult<Produced>>;

/**
 * An engine may attach the JSON bytes of an answer it serves again and again (the mock's memoized answers) under
 * this symbol; the platform then sends that text instead of serializing the object on every request.
 */
export const PRESERIALIZED = Symbol.for("plumbline.preserialized");

const json =
  (status: number) =>
  (value: unknown): Produced => ({
    status,
    contentType: "application/json; charset=utf-8",
    payload: value,
    serialized: (value as { [PRESERIALIZED]?: Buffer } | null)?.[PRESERIALIZED],
  });

/** Not an async function, and `ok200` made once: per call that saved an async frame and a closure (issue 25). */
function map<T>(pending: Promise<EngineResult<T>>, to: (value: T) => Produced): Promise<EngineResult<Produced>> {
  return pending.then((r) => (r.ok ? { ok: true, value: to(r.value) } : r));
}

const ok200 = json(200);

/**
 * An executor of an operation that names a target URL, refusing one that cannot be a target (target-url.ts) with its
 * 400 before any engine runs.
 */
function onTarget(run: Executor): Executor {
  return (body, ctx) => {
    const refused = targetUrlRefusal((body as { url: unknown }).url);
    return refused ? Promise.resolve(refused) : run(body, ctx);
  };
}

/**
 * A crawl request as the engines read it: `enable_fallback`, the live contract's other spelling, becomes
 * `enableFallback` when that is absent (D-crawl-fallback-alias); the request is unchanged otherwise.
 */
export function crawlRequest(body: unknown): Schemas["CrawlRequest"] {
  const b = body as Schemas["CrawlRequest"] & { enable_fallback?: boolean };
  if (b.enable_fallback === undefined) return b;
  const { enable_fallback, ...rest } = b;
  return { ...rest, enableFallback: rest.enableFallback ?? enable_fallback };
}

export function createExecutors(engines: Engines, deepcrawl: DeepcrawlService): Record<string, Executor> {
  const ask = engines.ask?.bind(engines);
  return {
    search: (b, c) => map(engines.search(b as Schemas["SearchParameters"], c.engine), ok200),
    news: (b, c) => map(engines.news(b as Schemas["NewsParameters"], c.engine), ok200),
    ...(ask
      ? { ask: (b: unknown, c: ExecutionContext) => map(ask(b as LiveSchemas["AskRequest"], c.engine), ok200) }
      : {}),
    crawl: onTarget((b, c) => map(engines.crawl(crawlRequest(b), c.engine), ok200)),
    sitemap: onTarget((b, c) => map(engines.sitemap(b as Schemas["SitemapRequest"], c.engine), ok200)),
    trending: (b, c) => map(engines.trending(b as Schemas["TrendingRequest"], c.engine), ok200),
    extract: onTarget((b, c) => map(engines.extract(b as Schemas["ExtractRequest"], c.engine), ok200)),
    screenshot: onTarget((b, c) =>
      map(engines.screenshot(b as Schemas["ScreenshotRequest"], c.engine), (img) => ({
        status: 200,
        contentType: img.contentType,
        payload: img.body,
      })),
    ),
    // 202 with the accepted task; the result is polled (interface-spec "POST /deepcrawl")
    deepcrawl: onTarget((b, c) =>
      map(deepcrawl.start(c.account.id, b as Schemas["DeepcrawlRequest"], c.engine), (task) =>
        json(202)({ taskId: task.taskId, status: "queued" }),
      ),
    ),
  };
}

/** Failures that are still charged: a crawl target that confirmed 404 or 410 (D-charging). */
export function chargedFailure(operationId: string, code: string): boolean {
  return operationId === "crawl" && (code === "PLB_TARGET_NOT_FOUND" || code === "PLB_TARGET_GONE");
}
