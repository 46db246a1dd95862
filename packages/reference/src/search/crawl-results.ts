// crawl_results N (interface-spec "Search parameters"; Limits 3): the first N results are fetched with the /crawl
// machinery and carry the page's text in `content`, as /crawl gives it. The N crawls are billed whatever they
// yield (D-crawl-results-billing): a result whose page cannot be crawled keeps its place, without `content`,
// and says why in `crawl_error` (the statusCode and message /crawl would have answered).
import { ERROR_CATALOGUE, type Schemas } from "@plumbline-kit/contract";
import type { EngineContext, Engines } from "@plumbline-kit/platform/engines";

type Result = Schemas["SearchResult"] & { crawl_error?: { statusCode: number; message: string } };

/** At most this many result pages are fetched at once for one call. */
const CONCURRENCY = 4;

/**
 * `recent(link)`: the page's text when the reference fetched it moments ago (the index's copy, which is what /crawl
 * gave then); it is used instead of fetching the page again, so a batch of searches over the same pages does not
 * hammer their site.
 */
export async function crawlResults(
  results: Result[],
  n: number,
  crawl: Engines["crawl"],
  ctx: EngineContext,
  recent: (link: string) => string | null = () => null,
): Promise<Result[]> {
  const out = [...results];
  let next = 0;
  const worker = async () => {
    while (next < Math.min(n, out.length)) {
      const i = next++;
      const cached = recent(out[i].link);
      if (cached !== null) {
        out[i] = { ...out[i], content: cached };
        continue;
      }
      const r = await crawl({ url: out[i].link }, ctx);
      if (r.ok) out[i] = { ...out[i], content: r.value.results.content };
      else {
        const entry = ERROR_CATALOGUE[r.code];
        out[i] = { ...out[i], crawl_error: { statusCode: entry.status, message: r.message ?? entry.message } };
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}
