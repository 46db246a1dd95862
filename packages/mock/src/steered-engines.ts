// Prism's `Prefer: example=<name>` and `dynamic=true` on top of the synthetic engines: the named example of the
// document, or a value generated from the response schema. The call still goes through validation and billing.

import type { Contract } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";
import { createRng } from "./engines/rng.ts";
import { generateValue } from "./engines/schema-value.ts";

export interface SteeringContext extends EngineContext {
  example?: string;
  dynamic?: boolean;
}

type Obj = Record<string, unknown>;

function responseMedia(contract: Contract, operationId: string): Obj | null {
  const op = contract.operation(operationId);
  const success = op.statuses.find((s) => s < 300);
  const pathItem = (contract.document.paths as Obj)[op.path] as Obj;
  const res = ((pathItem[op.method] as Obj).responses as Obj)[String(success)] as Obj | undefined;
  return ((res?.content as Obj | undefined)?.["application/json"] as Obj | undefined) ?? null;
}

export function steerEngines(contract: Contract, engines: Engines): Engines {
  const wrap =
    <A, T>(operationId: string, run: (args: A, ctx: EngineContext) => Promise<EngineResult<T>>) =>
    (args: A, ctx: SteeringContext): Promise<EngineResult<T>> =>
      // nothing steered (the hot path): straight through, without a promise of its own
      ctx.example || ctx.dynamic ? steered(operationId, run, args, ctx) : run(args, ctx);
  const steered = async <A, T>(
    operationId: string,
    run: (args: A, ctx: EngineContext) => Promise<EngineResult<T>>,
    args: A,
    ctx: SteeringContext,
  ): Promise<EngineResult<T>> => {
    const media = responseMedia(contract, operationId);
    if (media && ctx.example) {
      const example = ((media.examples ?? {}) as Obj)[ctx.example] as Obj | undefined;
      if (!example) {
        const names = Object.keys((media.examples ?? {}) as Obj).join(", ");
        return {
          ok: false,
          code: "PLB_BAD_VALUE",
          message: `No example "${ctx.example}" for ${operationId} (known: ${names})`,
        };
      }
      return { ok: true, value: structuredClone(example.value) as T };
    }
    if (media && ctx.dynamic) {
      const url = (args as { url?: string }).url ?? "https://example.com/";
      const facts = { url, title: "Example", site: new URL(url).hostname, words: ["example"] };
      const rng = createRng(ctx.seed, "dynamic", operationId, args);
      return { ok: true, value: generateValue(media.schema, { rng, facts, variability: ctx.variability }) as T };
    }
    return run(args, ctx);
  };
  return {
    search: wrap("search", engines.search),
    news: wrap("news", engines.news),
    crawl: wrap("crawl", engines.crawl),
    screenshot: engines.screenshot,
    sitemap: wrap("sitemap", engines.sitemap),
    trending: wrap("trending", engines.trending),
    extract: wrap("extract", engines.extract),
    ...(engines.ask ? { ask: wrap("ask", engines.ask) } : {}),
  };
}
