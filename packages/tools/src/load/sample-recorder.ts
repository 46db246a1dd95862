// Every answer of a run, kept until the end: per operation, per second (for the charts) and overall, with the
// credits the tool counted and the requests whose fate it never learned (for the accounting check).
import { latencyAt, summarise } from "./latency-summary.ts";
import type { RequestTemplate } from "./request-plan.ts";
import type { FlowStats, LatencySummary, OperationStats, TimelinePoint } from "./types.ts";

interface Series {
  latencies: number[];
  statuses: Map<number, number>;
  requests: number;
  failures: number;
  errors: number;
  invalidSent: number;
  /** 429s that respect the target's advertised policy: answers, not errors, and no latency sample */
  throttled: number;
  /** arrivals not sent: the target's limits or the credit budget left no room */
  heldBack: number;
}

interface FlowSeries {
  started: number;
  completed: number;
  failed: number;
  times: number[];
  polls: number;
}

const newSeries = (): Series => ({
  latencies: [],
  statuses: new Map(),
  requests: 0,
  failures: 0,
  errors: 0,
  invalidSent: 0,
  throttled: 0,
  heldBack: 0,
});

export interface ProgressSample {
  warmingUp: boolean;
  elapsedSeconds: number;
  requests: number;
  errors: number;
  lastSecondRps: number;
  lastSecondP99: number | null;
}

export class SampleRecorder {
  readonly overall = newSeries();
  readonly byOperation = new Map<string, Series>();
  readonly flows = new Map<string, FlowSeries>();
  private readonly seconds: Series[] = [];
  readonly serviceLatencies: number[] = [];
  /** credits of the answered calls, priced from the spec */
  countedCredits = 0;
  unresolved = 0;
  unresolvedCredits = 0;

  private startedAt = performance.now();
  private measuring = true;

  /** Starts in warm-up: answers then only count for the credits, until begin(). */
  warmUp(): void {
    this.measuring = false;
  }

  begin(): void {
    this.measuring = true;
    this.startedAt = performance.now();
  }

  private series(t: RequestTemplate): Series[] {
    let op = this.byOperation.get(t.operationId);
    if (!op) {
      op = newSeries();
      this.byOperation.set(t.operationId, op);
    }
    const second = Math.max(0, Math.floor((performance.now() - this.startedAt) / 1000));
    while (this.seconds.length <= second) this.seconds.push(newSeries());
    return [this.overall, op, this.seconds[second]];
  }

  /**
   * An answer. `latencyMs` is from the scheduled arrival in an open loop, `serviceMs` from the actual send.
   * `throttled`: a 429 respecting the target's advertised limits (rate-limits.ts), counted as throttling: neither an
   * error nor a latency sample (a quick refusal is no measure of the service).
   */
  response(
    t: RequestTemplate,
    status: number,
    latencyMs: number,
    credits: number,
    serviceMs?: number,
    throttled = false,
  ): void {
    this.countedCredits += credits;
    if (!this.measuring) return;
    const unexpected = !throttled && !t.expect.has(status);
    for (const s of this.series(t)) {
      s.requests++;
      if (throttled) s.throttled++;
      else s.latencies.push(latencyMs);
      s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
      if (unexpected) s.errors++;
      if (t.invalid) s.invalidSent++;
    }
    if (serviceMs !== undefined && !throttled) this.serviceLatencies.push(serviceMs);
  }

  /** An arrival not sent: the target's limits (or the credit budget) left no room for it. */
  heldBack(t: RequestTemplate): void {
    if (this.measuring) for (const s of this.series(t)) s.heldBack++;
  }

  /** No answer. A request that was sent may have been charged: the accounting check allows for it. */
  failure(t: RequestTemplate, sent: boolean): void {
    if (this.measuring)
      for (const s of this.series(t)) {
        s.failures++;
        s.errors++;
      }
    if (sent) {
      this.unresolved++;
      this.unresolvedCredits += t.maxCredits;
    }
  }

  /** A paid call made outside the measured traffic (a setup step): it counts for the accounting only. */
  charged(credits: number): void {
    this.countedCredits += credits;
  }

  flowStarted(name: string): void {
    this.flow(name).started++;
  }

  flowEnded(name: string, outcome: "completed" | "failed", ms: number, polls: number): void {
    const f = this.flow(name);
    f.polls += polls;
    if (outcome === "completed") {
      f.completed++;
      f.times.push(ms);
    } else f.failed++;
  }

  private flow(name: string): FlowSeries {
    let f = this.flows.get(name);
    if (!f) {
      f = { started: 0, completed: 0, failed: 0, times: [], polls: 0 };
      this.flows.set(name, f);
    }
    return f;
  }

  progress(): ProgressSample {
    const elapsed = Math.round((performance.now() - this.startedAt) / 1000);
    const last = this.seconds[elapsed - 1];
    const sorted = Float64Array.from(last?.latencies ?? []).sort();
    return {
      warmingUp: !this.measuring,
      elapsedSeconds: elapsed,
      requests: this.overall.requests,
      errors: this.overall.errors,
      lastSecondRps: last?.requests ?? 0,
      lastSecondP99: latencyAt(sorted, 99),
    };
  }

  /** Ascending latencies of "overall", an operationId or "flow:NAME"; undefined when that key saw no traffic. */
  sorted(key: string): Float64Array | undefined {
    if (key.startsWith("flow:")) {
      const f = this.flows.get(key.slice(5));
      return f ? Float64Array.from(f.times).sort() : undefined;
    }
    const s = key === "overall" ? this.overall : this.byOperation.get(key);
    return s && s.requests + s.failures > 0 ? Float64Array.from(s.latencies).sort() : undefined;
  }

  overallStats(windowSeconds: number): OperationStats {
    return toStats(this.overall, windowSeconds);
  }

  serviceLatency(): LatencySummary | null {
    return summarise(this.serviceLatencies);
  }

  operationStats(windowSeconds: number): Record<string, OperationStats> {
    return Object.fromEntries([...this.byOperation].sort().map(([id, s]) => [id, toStats(s, windowSeconds)]));
  }

  allFlowStats(windowSeconds: number): Record<string, FlowStats> {
    return Object.fromEntries([...this.flows.keys()].map((n) => [n, this.flowStats(n, windowSeconds) as FlowStats]));
  }

  flowStats(name: string, windowSeconds: number): FlowStats | undefined {
    const f = this.flows.get(name);
    if (!f) return undefined;
    const incomplete = f.started - f.completed - f.failed;
    return {
      started: f.started,
      completed: f.completed,
      failed: f.failed,
      incomplete,
      errorRate: f.started ? (f.failed + incomplete) / f.started : 0,
      rps: round(f.completed / windowSeconds),
      timeToCompleted: summarise(f.times),
      pollsPerFlow: f.started ? round(f.polls / f.started) : 0,
    };
  }

  timeline(): TimelinePoint[] {
    return this.seconds.map((s, second) => {
      const sorted = Float64Array.from(s.latencies).sort();
      return {
        second,
        requests: s.requests,
        errors: s.errors,
        p50: latencyAt(sorted, 50),
        p90: latencyAt(sorted, 90),
        p99: latencyAt(sorted, 99),
      };
    });
  }
}

const round = (n: number) => Math.round(n * 10) / 10;

function toStats(s: Series, windowSeconds: number): OperationStats {
  const attempts = s.requests + s.failures;
  return {
    requests: s.requests,
    failures: s.failures,
    errors: s.errors,
    errorRate: attempts ? s.errors / attempts : 0,
    rps: round(s.requests / windowSeconds),
    latency: summarise(s.latencies),
    statuses: Object.fromEntries([...s.statuses].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v])),
    invalidSent: s.invalidSent,
    throttled: s.throttled,
    heldBack: s.heldBack,
  };
}
