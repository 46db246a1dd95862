// Test glue for the scale-out tests (issue 11 "Scale-out"): two reference instances on one database, A crawling and
// B only answering (maxTasks 0: its worker never claims), and the round the issue names: a task started on B is
// taken by A, and B serves its zip through its own signed zipUrl, which holds every page of the test site.
import { expect } from "vitest";
import { download, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { phraseOf, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { type ReferenceOptions, type RunningReference, startReference } from "../start-reference.ts";

export interface Pair {
  a: RunningReference;
  b: RunningReference;
}

/**
 * `options(name)` gives each instance its options (a data directory of its own, or a shared package directory); its
 * deepcrawlSettings are laid over the pair's (A: no delay between pages, B: no task; both look for tasks every 50 ms).
 */
export async function startPair(options: (name: "a" | "b") => ReferenceOptions): Promise<Pair> {
  const oa = options("a");
  const a = await startReference({ ...oa, deepcrawlSettings: { hostDelayMs: 0, pollMs: 50, ...oa.deepcrawlSettings } });
  try {
    const ob = options("b");
    const b = await startReference({ ...ob, deepcrawlSettings: { maxTasks: 0, pollMs: 50, ...ob.deepcrawlSettings } });
    return { a, b };
  } catch (err) {
    await a.close();
    throw err;
  }
}

/** Starts a deepcrawl of `site` on B, sees A run it (polling B every `pollMs`) and B serve the whole package; the task's id. */
export async function crawlOnAServeFromB({ a, b }: Pair, key: string, site: TestSite, pollMs = 50): Promise<string> {
  const res = await startDeepcrawl(b.url, key, { url: `${site.url}/` });
  expect(res.status).toBe(202);
  const { taskId } = (await res.json()) as { taskId: string };
  const { last } = await pollUntil(b.url, taskId, 60_000, key, undefined, pollMs);
  expect(last.status).toBe("completed");
  const row = await b.deepcrawl?.store.getTask(taskId);
  expect(row?.lease_owner).toBe(a.deepcrawl?.worker?.owner);
  expect(new URL(last.zipUrl as string).origin).toBe(b.url);
  const { manifest, documents } = await download(last.zipUrl as string);
  const pages = (manifest as { pages: Array<{ url: string; path: string }> }).pages;
  expect(pages).toHaveLength(site.pagePaths.length);
  for (const [i, p] of site.pagePaths.entries())
    expect(documents.get(pages.find((x) => x.url === `${site.url}${p}`)?.path as string)).toContain(phraseOf(i));
  return taskId;
}
