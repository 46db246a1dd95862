// The contract's edges: answers the interface allows (or a decision settles) that real clients break on. One record
// per edge: what the mock answers when steered into it (mock/edges/edge-steering.ts), which operations it applies
// to, the interface section or decision allowing it, and how a client handles it. `plumbline edges -- CMD` runs a
// client's tests once per edge (docs/edges.md). Self-contained: no import outside the contract package.

export interface EdgeSpec {
  /** stable id, as `--edges` takes it */
  id: string;
  title: string;
  /** what the mock answers, on which requests */
  answer: string;
  /** the operationIds it applies to: a run whose client calls none of them did not exercise the edge */
  operations: readonly string[];
  /** the interface-spec section (`interface-spec: …`) or decision (`D-…`) that allows the answer */
  allowedBy: readonly string[];
  /** what a client does about it, in a sentence or two */
  handling: string;
}

/** The operations that cost credits: every one a client pays for. */
export const PAID_OPERATIONS = [
  "search",
  "news",
  "crawl",
  "screenshot",
  "sitemap",
  "trending",
  "extract",
  "deepcrawl",
] as const;
const BATCH_OPERATIONS = ["search", "news", "crawl"] as const;
const LISTS = ["search", "news", "trending"] as const;

export const EDGES: readonly EdgeSpec[] = [
  {
    id: "rate-limited",
    title: "429 with Retry-After on the first paid call",
    answer:
      "The first paid call of the run answers 429 Too Many Requests with `Retry-After: 1` and the RateLimit headers; the same call made again succeeds.",
    operations: PAID_OPERATIONS,
    allowedBy: ["interface-spec: Limits (4)", "D-rate-limits"],
    handling: "Wait the `Retry-After` seconds, then send the same request again; do not fail the caller on a 429.",
  },
  {
    id: "credits-run-out-mid-batch",
    title: "402 mid-batch: the balance runs out inside a batch",
    answer:
      "A batch of two or more entries answers 200 with its first entry served and every later entry failed with `statusCode: 402` and cost 0; the summary counts them.",
    operations: BATCH_OPERATIONS,
    allowedBy: ["interface-spec: Batch response", "D-charging", "D-batch-execution"],
    handling:
      "Read every entry's `success`; keep the served entries and report the unpaid ones (top up or pay, then send only those again).",
  },
  {
    id: "batch-entry-failed",
    title: "A batch with one failed entry",
    answer: "A batch answers 200 with its first entry failed (`success: false`, `error.statusCode: 502`, cost 0).",
    operations: BATCH_OPERATIONS,
    allowedBy: ["interface-spec: Batch response", "interface-spec: Errors"],
    handling: "Never read `data` of an entry without checking `success`; a 200 batch may hold failures.",
  },
  {
    id: "deepcrawl-failed",
    title: "A deepcrawl task that waits, processes, then fails",
    answer:
      "A started task goes through `queued`, `waiting` and `processing`, then answers `status: failed`, `success: false`, an `error` text and no zip.",
    operations: ["deepcrawl"],
    allowedBy: ["interface-spec: States and transitions", "D-deepcrawl-success", "D-deepcrawl-states"],
    handling:
      "Poll until `completed` or `failed`; on `failed` return the error to the caller as an outcome (its credits come back), not a crash.",
  },
  {
    id: "deepcrawl-slow",
    title: "A deepcrawl task that takes a long time",
    answer:
      "A started task stays unfinished for five minutes of the mock's manual clock, which the mock advances by 10 s at every status poll: the task completes at about the 30th poll.",
    operations: ["deepcrawl"],
    allowedBy: ["interface-spec: States and transitions", "D-deepcrawl-states"],
    handling:
      "Poll on a time budget (minutes), not a small count of attempts; back off between polls (polling is free).",
  },
  {
    id: "task-not-found",
    title: "`not_found` for a task",
    answer:
      "Every status poll answers 404 with `status: not_found` and `success: false` (the task expired, or the id is not the caller's).",
    operations: ["deepcrawlStatus"],
    allowedBy: ["interface-spec: Errors", "D-status-not-found"],
    handling: "Stop polling and report the task as lost (start it again if needed); the 404 carries a status body.",
  },
  {
    id: "trending-description-null",
    title: "`description: null` on trending",
    answer: "Every trending result carries `description: null`.",
    operations: ["trending"],
    allowedBy: ["interface-spec: Trending result and response", "D-trending-description"],
    handling: "Treat `description` as `string | null | undefined`.",
  },
  {
    id: "zero-results",
    title: "Zero results",
    answer: "Search, news and trending answer `results: []` (and `images: []` when images were asked for).",
    operations: LISTS,
    allowedBy: ["interface-spec: Search response", "interface-spec: Trending result and response"],
    handling: 'An empty list is a valid answer: show "nothing found", do not index `results[0]`.',
  },
  {
    id: "fewer-results",
    title: "Fewer results than `max_results`",
    answer: "Search, news and trending answer a single result whatever `max_results` asked for.",
    operations: LISTS,
    allowedBy: ["interface-spec: Search parameters", "interface-spec: Search response"],
    handling: "`max_results` is an upper bound: iterate what came back, do not assume the count.",
  },
  {
    id: "optional-fields-absent",
    title: "Every optional field absent",
    answer:
      "Optional fields are left out: `images` (even when asked for), `content` of search results, `metadata` of crawl results, `description` of trending results, and `message`, `error` and `r2Key` of deepcrawl status answers (`zipUrl` is null until the task completes).",
    operations: ["search", "news", "crawl", "trending", "deepcrawlStatus"],
    allowedBy: ["interface-spec: Search response", "interface-spec: Crawl result", "interface-spec: Deepcrawl task"],
    handling: "Read optional fields with a default (`images ?? []`, `metadata ?? {}`).",
  },
  {
    id: "extra-properties",
    title: "Extra unknown properties on every object",
    answer:
      "Every object of every answer carries an extra property (`x_plumbline_edge`) wherever the document allows one.",
    operations: [...PAID_OPERATIONS, "deepcrawlStatus", "usage"],
    allowedBy: ['interface-spec: Search result ("Extra properties may appear")', "interface-spec: Errors"],
    handling: "Ignore properties you do not know; never validate answers with a closed schema.",
  },
  {
    id: "upstream-502",
    title: "502 from an upstream",
    answer:
      "The first call of each operation answers 502 Bad Gateway (`PLB_UPSTREAM_FAILED`, uncharged); the same call made again succeeds.",
    operations: ["search", "news", "crawl", "sitemap", "trending", "extract", "deepcrawl"],
    allowedBy: ["interface-spec: Errors"],
    handling: "Retry a 502 a few times with backoff before failing the caller.",
  },
  {
    id: "screenshot-503",
    title: "503 on screenshot",
    answer: "The first screenshot answers 503 Service Unavailable; the same call made again succeeds.",
    operations: ["screenshot"],
    allowedBy: ["interface-spec: Errors"],
    handling: "Retry a 503 with backoff before failing the caller.",
  },
  {
    id: "screenshot-504",
    title: "504 on screenshot",
    answer: "The first screenshot answers 504 Gateway Timeout; the same call made again succeeds.",
    operations: ["screenshot"],
    allowedBy: ["interface-spec: Errors"],
    handling: "Retry a 504 with backoff before failing the caller.",
  },
  {
    id: "slow-answer",
    title: "A 5-second latency",
    answer: "The first paid call of the run is answered after 5 seconds.",
    operations: PAID_OPERATIONS,
    allowedBy: ["interface-spec: Limits (time limits not shown)"],
    handling: "Give calls a timeout well above a few seconds (screenshots and crawls take time upstream).",
  },
  {
    id: "connection-reset",
    title: "A connection reset once, then success",
    answer:
      "The first paid call of the run has its connection dropped without an answer; the same call made again succeeds.",
    operations: PAID_OPERATIONS,
    allowedBy: ["interface-spec: Errors (transport failures are not shown)"],
    handling: "Retry a request whose connection dropped (a network error, no status) with backoff.",
  },
  {
    id: "non-latin-text",
    title: "Non-Latin and right-to-left text",
    answer:
      "Titles, snippets, descriptions and page text carry Arabic, Hebrew, Chinese and emoji text (with right-to-left runs).",
    operations: ["search", "news", "crawl", "trending"],
    allowedBy: ["interface-spec: Search result", "interface-spec: Crawl result"],
    handling: "Treat text as Unicode end to end (UTF-8, no byte slicing, no Latin-only escaping).",
  },
  {
    id: "largest-crawl-page",
    title: "The largest page of a crawl within the limits",
    answer: "A crawl answers `content` of 5 MiB of text, the largest page the service parses.",
    operations: ["crawl"],
    allowedBy: ["interface-spec: Crawl result", "D-parse-limits"],
    handling: "Do not cap the answer's size below a few MiB; stream or truncate it yourself where you store it.",
  },
  {
    id: "ratelimit-near-exhaustion",
    title: "A RateLimit policy near exhaustion",
    answer: 'Every answer carries `RateLimit: "default";r=1;t=1`: one request left in a window that ends in a second.',
    operations: [...PAID_OPERATIONS, "deepcrawlStatus", "usage"],
    allowedBy: ["interface-spec: Limits (4)", "D-rate-limits"],
    handling: "Parse the header leniently; when `r` is low, wait `t` seconds before the next burst instead of failing.",
  },
];

const BY_ID = new Map(EDGES.map((e) => [e.id, e]));

/** The edge of this id, or undefined. */
export function edgeById(id: string): EdgeSpec | undefined {
  return BY_ID.get(id);
}

export const EDGE_IDS: readonly string[] = EDGES.map((e) => e.id);
