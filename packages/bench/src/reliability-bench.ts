// `plumbline bench reliability` (issue 38): the three reliability cases in one run, so a change that breaks one of
// them is seen: kill -9 of the reference mid-burst (credits lost must be 0: crash-bench.ts), hostile pages against
// the reference (/health max within 1 s, refusals uncharged: extract-stall-bench.ts) and a soak of the mock (RSS flat
// after warm-up: mock-soak-bench.ts). Each case is its own benchmark too; this runs them one after the other (never
// at once: each measures a process the others would slow) and judges them together.
import { benchCrash, type CrashBenchResult, renderCrashBench } from "./crash-bench.ts";
import { benchExtractStall, type ExtractStallResult, renderExtractStallBench } from "./extract-stall-bench.ts";
import { benchMockSoak, type MockSoakResult, renderMockSoakBench } from "./mock-soak-bench.ts";

export interface ReliabilityBenchOptions {
  /** kill -9 runs per store (default 1) */
  crashRuns?: number;
  /** also kill one of two instances on PostgreSQL */
  databaseUrl?: string;
  /** rounds of each hostile page (default 1) */
  stallRounds?: number;
  /** minutes of the mock's soak (default 10) and its warm-up in seconds (default 120) */
  soakMinutes?: number;
  soakWarmUpSeconds?: number;
  soakRate?: number;
  /** told when each case starts */
  onCase?: (name: "crash" | "extract-stall" | "mock-soak") => void;
}

export interface ReliabilityBenchResult {
  crash: CrashBenchResult;
  stall: ExtractStallResult;
  soak: MockSoakResult;
  /** every case met its target */
  ok: boolean;
}

export async function benchReliability(o: ReliabilityBenchOptions = {}): Promise<ReliabilityBenchResult> {
  o.onCase?.("crash");
  const crash = await benchCrash({ runs: o.crashRuns ?? 1, databaseUrl: o.databaseUrl });
  o.onCase?.("extract-stall");
  const stall = await benchExtractStall({ rounds: o.stallRounds ?? 1 });
  o.onCase?.("mock-soak");
  const soak = await benchMockSoak({
    minutes: o.soakMinutes ?? 10,
    warmUpSeconds: o.soakWarmUpSeconds ?? 120,
    rate: o.soakRate,
  });
  return { crash, stall, soak, ok: crash.intact && stall.ok && soak.flat };
}

const verdict = (ok: boolean) => (ok ? "ok" : "FAILED");

/** Each case's own report, then one line per case and the verdict. */
export function renderReliabilityBench(r: ReliabilityBenchResult): string {
  return [
    "== crash: kill -9 of the reference mid-burst",
    renderCrashBench(r.crash),
    "",
    "== extract-stall: hostile pages against the reference",
    renderExtractStallBench(r.stall),
    "",
    "== mock-soak: the mock's memory under a steady mixed workload",
    renderMockSoakBench(r.soak),
    "",
    `crash ${verdict(r.crash.intact)}, extract-stall ${verdict(r.stall.ok)}, mock-soak ${verdict(r.soak.flat)}: ${
      r.ok ? "reliable" : "a reliability case FAILED"
    }`,
  ].join("\n");
}
