// The reference deepcrawl's settings (issue 11): limits that protect the server, politeness, the lease that makes
// tasks survive crashes, and the hook that feeds other parts (the search index) with every fetched page.

export interface DeepcrawlLimits {
  /** pages listed per task (discovered URLs beyond are not fetched) */
  maxPages: number;
  /** bytes of Markdown documents per package */
  maxBytes: number;
  /** crawl time per task, counted from the first claim, across restarts */
  maxDurationMs: number;
}

export const DEFAULT_DEEPCRAWL_LIMITS: DeepcrawlLimits = {
  maxPages: 500,
  maxBytes: 100 * 1024 * 1024,
  maxDurationMs: 15 * 60 * 1000,
};

export interface DeepcrawlPage {
  url: string;
  title: string;
  markdown: string;
  fetchedAt: string;
  metadata?: Record<string, unknown>;
}

/** Called once per page with a document, in the worker; a failing hook is logged, never fails the task. */
export type DeepcrawlPageHook = (page: DeepcrawlPage) => Promise<void>;

export interface DeepcrawlSettings {
  limits: DeepcrawlLimits;
  /** pages of one task fetched at once */
  concurrency: number;
  /** least time between two requests to one host (a robots.txt Crawl-delay may ask for more) */
  hostDelayMs: number;
  /** a robots.txt Crawl-delay is honoured up to this */
  maxCrawlDelayMs: number;
  /** tasks one instance runs at once */
  maxTasks: number;
  /** how long a claim holds without renewal; a crashed worker's task is taken over after this */
  leaseMs: number;
  /** how often an idle worker looks for tasks started elsewhere */
  pollMs: number;
  /** a task claimed this many times without finishing (it keeps crashing its worker) fails */
  maxAttempts: number;
  /** how long a signed zipUrl stays valid */
  linkTtlMs: number;
}

export const DEFAULT_DEEPCRAWL_SETTINGS: DeepcrawlSettings = {
  limits: DEFAULT_DEEPCRAWL_LIMITS,
  concurrency: 4,
  hostDelayMs: 250,
  maxCrawlDelayMs: 10_000,
  maxTasks: 2,
  leaseMs: 30_000,
  pollMs: 1_000,
  maxAttempts: 3,
  linkTtlMs: 60 * 60 * 1000,
};
