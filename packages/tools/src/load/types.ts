// The records of a load run: what the drivers measure, what thresholds read and what the reports render.
// Reports are rendered from these typed records, never from parsed text (style 7).

export type LoadMode = "closed" | "open";

/** Latency figures in milliseconds; null when nothing was measured. */
export interface LatencySummary {
  min: number;
  avg: number;
  med: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

export interface OperationStats {
  /** responses received, whatever their status */
  requests: number;
  /** requests sent and never answered (connection errors, timeouts, arrivals an open loop could not send) */
  failures: number;
  /** answers whose status the scenario did not expect, plus failures */
  errors: number;
  errorRate: number;
  /** answers per second over the measured window */
  rps: number;
  latency: LatencySummary | null;
  statuses: Record<string, number>;
  /** requests the scenario sent invalid on purpose (and expected to be refused) */
  invalidSent: number;
  /** 429s respecting the target's advertised limits: throttling, counted among the answers, not the errors */
  throttled: number;
  /** arrivals not sent because the target's limits (or the credit budget) left no room */
  heldBack: number;
}

export interface FlowStats {
  started: number;
  completed: number;
  failed: number;
  /** still running when the run ended */
  incomplete: number;
  errorRate: number;
  /** completed flows per second */
  rps: number;
  /** time from submit to the first poll that saw `completed` */
  timeToCompleted: LatencySummary | null;
  pollsPerFlow: number;
}

/** One second of the run, by completion time. */
export interface TimelinePoint {
  second: number;
  requests: number;
  errors: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

export interface CreditCheck {
  checked: boolean;
  /** why it was not checked, or what it found */
  detail: string;
  startBalance?: number;
  endBalance?: number;
  /** start − end */
  spent?: number;
  /** credits of the successful calls the tool counted, priced from the spec */
  counted?: number;
  /** requests sent whose fate is unknown (no answer), and the most they could have cost */
  unresolved?: number;
  unresolvedCredits?: number;
  pass: boolean;
}

export interface ThresholdOutcome {
  /** "overall", an operationId, or "flow:deepcrawl" */
  key: string;
  expression: string;
  /** the measured value in the expression's unit */
  actual: number | null;
  status: "passed" | "failed" | "skipped";
  note?: string;
}

export interface RegressionOutcome {
  key: string;
  metric: string;
  baseline: number;
  current: number;
  changePercent: number;
  regressed: boolean;
}

export interface BaselineComparison {
  file: string;
  maxRegressionPercent: number;
  minDeltaMs: number;
  outcomes: RegressionOutcome[];
  pass: boolean;
}

export interface PeerFigure {
  target: string;
  url: string;
  requests: number;
  rps: number;
  p50: number | null;
  p99: number | null;
  unexpected: number;
}

export interface PeerComparison {
  scenario: string;
  rounds: number;
  figures: PeerFigure[];
  ratios: Record<string, number>;
}

/** How the target's rate limits shaped the run (issue 27). */
export interface RateLimitReport {
  /**
   * advertised: read from the target's RateLimit-Policy / RateLimit headers; stated: --rate-limit; none: the target
   * advertises none (the run was not paced); ignored: --ignore-rate-limits
   */
  source: "advertised" | "stated" | "none" | "ignored";
  policies: Array<{ policy: string; quota: number; windowSeconds: number }>;
  /** requests per second the account's policy allows, or null */
  allowedRate: number | null;
  /** the arrival rate the run was paced at (open loop), or null when not paced */
  pacedRate: number | null;
  /** 429s that respected the policy (throttling) */
  throttled: number;
  /** arrivals not sent because a window was used up or paused by Retry-After */
  heldBack: number;
  /** thresholds that could not be judged at that rate, with why */
  unjudged: string[];
  /** one line for people */
  detail: string;
}

export interface LoadReport {
  tool: "plumbline load";
  reportVersion: 1;
  startedAt: string;
  finishedAt: string;
  target: string;
  /** the fixture site filled into `{{fixture}}` (absent in reports of runs without one) */
  fixture?: string;
  scenario: { name: string; kind: "requests" | "deepcrawl-flow"; description: string };
  mode: LoadMode;
  durationSeconds: number;
  connections: number;
  /** the requested arrival rate (open loop) */
  rate: number | null;
  overall: OperationStats;
  /** open loop only: latency from the actual send, beside `overall.latency` measured from the scheduled arrival */
  serviceLatency: LatencySummary | null;
  operations: Record<string, OperationStats>;
  flows: Record<string, FlowStats>;
  timeline: TimelinePoint[];
  credits: CreditCheck;
  /** the target's limits and what they allowed (absent in reports of older runs) */
  rateLimits?: RateLimitReport;
  /** the credit cap the run kept under (runLoad's maxCredits), and the arrivals it held back */
  creditCap?: { cap: number; heldBack: number };
  thresholds: ThresholdOutcome[];
  baseline: BaselineComparison | null;
  pass: boolean;
  /** the reasons it failed, one line each */
  breaches: string[];
}
