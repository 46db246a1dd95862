// `plumbline bench deepcrawl` (issue 11): one deepcrawl of a generated site of N pages through HTTP against a
// reference started in this process, reporting pages/s, the package size and the process's peak RSS against its
// RSS before the crawl, which shows that neither the page list nor the package is held in memory. The site is the
// deepcrawl tests' generated site (test-support/deepcrawl-site.ts), which is why this lives in bench/, outside the
// product folders.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startReference } from "@plumbline-kit/reference/start-reference";
import { mb, watchRss } from "./rss-peak.ts";

export interface DeepcrawlBenchOptions {
  /** article pages of the generated site, all in its sitemap (default 2000) */
  pages?: number;
  /** pages of the task fetched at once (default 8) */
  concurrency?: number;
}

export interface DeepcrawlBenchResult {
  /** the task's final state and message as the reference reports them */
  status: string;
  message: string;
  /** which limit stopped the crawl early, if one did (then the figures are not those of the whole site) */
  limitReached: string | null;
  /** pages the site has */
  pages: number;
  /** pages the crawl fetched and packaged (the reference's onDeepcrawlPage hook counts them) */
  crawled: number;
  concurrency: number;
  /** from the start request to the poll that saw the task end */
  seconds: number;
  pagesPerSecond: number;
  packageBytes: number;
  /** this process's RSS before the crawl and its peak during it (sampled every 100 ms), bytes */
  rssBefore: number;
  rssPeak: number;
  /** completed, and no limit stopped it */
  completed: boolean;
}

export async function benchDeepcrawl(o: DeepcrawlBenchOptions = {}): Promise<DeepcrawlBenchResult> {
  const pages = o.pages ?? 2000;
  const concurrency = o.concurrency ?? 8;
  // the test glue is loaded when the benchmark runs, not when the package's entry (index.ts) is
  const { startTestSite } = await import("../../../test-support/deepcrawl-site.ts");
  const { pollUntil, startDeepcrawl } = await import("../../../test-support/deepcrawl-client.ts");
  const timeoutMs = 30 * 60_000;
  const dir = mkdtempSync(join(tmpdir(), "plumbline-bench-deepcrawl-"));
  const site = await startTestSite({ pages });
  let crawled = 0;
  try {
    const ref = await startReference({
      port: 0,
      dataDir: dir,
      keys: [{ key: "bench", credits: 100 }],
      allowPrivateNetwork: true,
      deepcrawlSettings: {
        hostDelayMs: 0,
        concurrency,
        pollMs: 50,
        limits: { maxPages: pages + 10, maxDurationMs: timeoutMs },
      },
      onDeepcrawlPage: async () => {
        crawled++;
      },
    });
    try {
      const rss = watchRss(100);
      const t0 = Date.now();
      const res = await startDeepcrawl(ref.url, "bench", { url: `${site.url}/` });
      if (res.status !== 202) throw new Error(`POST /deepcrawl answered ${res.status}: ${await res.text()}`);
      const { taskId } = (await res.json()) as { taskId: string };
      const { last } = await pollUntil(ref.url, taskId, timeoutMs, "bench");
      const seconds = (Date.now() - t0) / 1000;
      rss.stop();
      const row = await ref.deepcrawl?.store.getTask(taskId);
      const limitReached = row?.limit_reached ?? null;
      return {
        status: last.status,
        message: last.message ?? "",
        limitReached,
        pages,
        crawled,
        concurrency,
        seconds,
        pagesPerSecond: crawled / seconds,
        packageBytes: row?.package_bytes ?? 0,
        rssBefore: rss.before,
        rssPeak: rss.peak(),
        completed: last.status === "completed" && limitReached === null,
      };
    } finally {
      await ref.close();
    }
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line: the task's end, pages/s, the package's size and the RSS figures. */
export function renderDeepcrawlBench(r: DeepcrawlBenchResult): string {
  return (
    `${r.status}: ${r.message}; ${r.crawled} pages in ${r.seconds.toFixed(1)} s (${r.pagesPerSecond.toFixed(1)} pages/s, ` +
    `concurrency ${r.concurrency}); package ${mb(r.packageBytes)} MB; RSS ${mb(r.rssBefore)} MB before, peak ${mb(r.rssPeak)} MB`
  );
}
