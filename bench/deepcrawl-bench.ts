// Benchmark (a script, not a test): one deepcrawl of a generated site of N pages through HTTP against an
// in-process reference, reporting pages/s, the package size and the process's peak RSS against its RSS before the
// crawl, which shows that neither the page list nor the package is held in memory.
//   npx tsx bench/deepcrawl-bench.ts [pages=2000] [concurrency=8]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startReference } from "../reference/start-reference.ts";
import { pollUntil, startDeepcrawl } from "../test-support/deepcrawl-client.ts";
import { startTestSite } from "../test-support/deepcrawl-site.ts";
import { mb, watchRss } from "./rss-peak.ts";

const pages = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 8);
const dir = mkdtempSync(join(tmpdir(), "plumbline-bench-deepcrawl-"));
const site = await startTestSite({ pages });
const ref = await startReference({
  port: 0,
  dataDir: dir,
  keys: [{ key: "bench", credits: 100 }],
  allowPrivateNetwork: true,
  deepcrawlSettings: { hostDelayMs: 0, concurrency, pollMs: 50, limits: { maxPages: pages + 10 } },
});
const rss = watchRss(100);
const before = rss.before;
const t0 = Date.now();
const res = await startDeepcrawl(ref.url, "bench", { url: `${site.url}/` });
const { taskId } = (await res.json()) as { taskId: string };
const { last } = await pollUntil(ref.url, taskId, 30 * 60_000);
const seconds = (Date.now() - t0) / 1000;
rss.stop();
const row = await ref.deepcrawl?.store.getTask(taskId);
console.log(
  `${last.status}: ${last.message}; ${pages} pages in ${seconds.toFixed(1)} s (${(pages / seconds).toFixed(1)} pages/s, ` +
    `concurrency ${concurrency}); package ${mb(row?.package_bytes ?? 0)} MB; RSS ${mb(before)} MB before, peak ${mb(rss.peak())} MB`,
);
await ref.close();
await site.close();
rmSync(dir, { recursive: true, force: true });
