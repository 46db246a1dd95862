// The terminal summary of a run: the verdict, what broke by name, the figures per operation, where the
// reports are. The progress line printed while it runs is here too.

import { plural } from "@plumbline-kit/contract/report/plural";
import type { ProgressSample } from "./sample-recorder.ts";
import type { LoadReport, OperationStats } from "./types.ts";

const pad = (s: string | number, n: number) => String(s).padStart(n);

export function progressLine(p: ProgressSample, durationSeconds: number): string {
  if (p.warmingUp) return `[warm-up] ${p.elapsedSeconds} s, not measured`;
  const p99 = p.lastSecondP99 === null ? "–" : `${p.lastSecondP99.toFixed(1)} ms`;
  return `[${pad(p.elapsedSeconds, 3)}/${durationSeconds} s] ${pad(p.lastSecondRps, 6)} answers/s  p99 ${p99}  total ${p.requests}  errors ${p.errors}`;
}

function row(name: string, s: OperationStats): string {
  const l = s.latency;
  const f = (v: number | undefined) => pad(v === undefined ? "–" : v.toFixed(1), 8);
  return `${name.padEnd(16)} ${pad(s.requests, 8)} ${pad(s.rps.toFixed(0), 7)} ${f(l?.avg)} ${f(l?.med)} ${f(l?.p95)} ${f(l?.p99)} ${pad(`${(s.errorRate * 100).toFixed(2)}%`, 8)}`;
}

export function renderSummary(r: LoadReport, files: { json: string; html: string } | null): string {
  const shape = r.mode === "open" ? `open loop at ${r.rate}/s` : `closed loop, ${plural(r.connections, "connection")}`;
  const lines = [
    `${r.pass ? "PASS" : "FAIL"}  ${r.scenario.name} against ${r.target} (${shape}, ${r.durationSeconds} s)`,
    ...(r.fixture ? [`fixture site: ${r.fixture}`] : []),
    "",
    `${"operation".padEnd(16)} ${pad("answers", 8)} ${pad("per s", 7)} ${pad("avg ms", 8)} ${pad("p50 ms", 8)} ${pad("p95 ms", 8)} ${pad("p99 ms", 8)} ${pad("errors", 8)}`,
    row("overall", r.overall),
    ...Object.entries(r.operations).map(([n, s]) => row(n, s)),
  ];
  for (const [n, f] of Object.entries(r.flows)) {
    const t = f.timeToCompleted;
    lines.push(
      "",
      `flow ${n}: ${f.completed}/${f.started} completed (${f.failed} failed, ${f.incomplete} incomplete); time to completed p50 ${t?.med ?? "–"} ms, p95 ${t?.p95 ?? "–"} ms, max ${t?.max ?? "–"} ms`,
    );
  }
  if (r.serviceLatency)
    lines.push(
      "",
      `latency from scheduled arrival above; from the actual send: p50 ${r.serviceLatency.med} ms, p99 ${r.serviceLatency.p99} ms`,
    );
  const passed = r.thresholds.filter((t) => t.status === "passed").length;
  const skipped = r.thresholds.filter((t) => t.status === "skipped").length;
  lines.push(
    "",
    `thresholds: ${passed} passed, ${r.thresholds.length - passed - skipped} failed, ${skipped} not applicable`,
  );
  lines.push(
    `credit accounting: ${r.credits.checked ? (r.credits.pass ? "ok, " : "FAILED, ") : ""}${r.credits.detail}`,
  );
  if (r.baseline)
    lines.push(
      `baseline: ${r.baseline.pass ? "no regression" : "regressed"} beyond ${r.baseline.maxRegressionPercent}% (${r.baseline.file})`,
    );
  if (r.breaches.length) lines.push("", "broken:", ...r.breaches.map((b) => `  ✗ ${b}`));
  if (r.rateLimits) {
    lines.push("", `rate limits: ${r.rateLimits.detail}`);
    for (const u of r.rateLimits.unjudged) lines.push(`  not judged: ${u}`);
  }
  if (r.creditCap)
    lines.push(
      `credit budget: at most ${plural(r.creditCap.cap, "credit")}, ${r.creditCap.heldBack} arrivals held back`,
    );
  const unthrottled = (r.overall.statuses["429"] ?? 0) - r.overall.throttled;
  if (unthrottled > 0)
    lines.push(
      "",
      `note: the target answered 429 ${plural(unthrottled, "time")}${r.rateLimits?.source === "ignored" ? " (--ignore-rate-limits: counted as errors)" : " without Retry-After and RateLimit headers (counted as errors)"}; start the mock or the reference with --rate-limit 0 for speed runs`,
    );
  if (files) lines.push("", `report: ${files.html}`, `        ${files.json}`);
  return lines.join("\n");
}
