// The operations the reference does not implement yet (issue 5 covers the platform, crawl and sitemap; parts 2
// and 3 bring the rest). They answer 502 PLB_UPSTREAM_FAILED, a status every paid operation lists, uncharged
// (D-charging), with a message that says so, rather than pretending with synthetic data.
import type { DeepcrawlService } from "./platform/deepcrawl-service.ts";
import type { EngineResult, Engines } from "./platform/engines.ts";

const missing = (operation: string) => async (): Promise<EngineResult<never>> => ({
  ok: false,
  code: "PLB_UPSTREAM_FAILED",
  message: `${operation} is not implemented in the plumbline reference yet`,
});

export const unimplementedEngines: Omit<Engines, "search" | "news"> = {
  crawl: missing("POST /crawl"),
  screenshot: missing("POST /screenshot"),
  sitemap: missing("POST /sitemap"),
  trending: missing("POST /trending"),
  extract: missing("POST /extract"),
};

export const unimplementedDeepcrawl: DeepcrawlService = {
  start: missing("POST /deepcrawl"),
  get: async () => null,
  archive: async () => null,
};
