// What the fuzzer learns about a target before it starts: that it is this API (the probe every client shares,
// spec/http/target-probe.ts: GET /health answers the contract's health body; else "could not run", exit 2), whether it advertises the mock's admin API (GET /__mock) and, if so, its clock mode and deepcrawl
// step durations. Clock commands and per-worker accounts are used only when the target advertises them.
import { probeTarget as probeApi } from "@plumbline-kit/contract/http/target-probe";
import type { HttpClient } from "./http-client.ts";

export interface DeepcrawlSteps {
  queuedMs: number;
  waitingMs: number;
  processingMs: number;
}

export interface TargetInfo {
  baseUrl: string;
  version: string | null;
  /** the mock's admin API answers under /__mock */
  admin: boolean;
  clock: "manual" | "real" | null;
  steps: DeepcrawlSteps | null;
}

export type Probe = { ok: true; target: TargetInfo } | { ok: false; reason: string };

type Obj = Record<string, unknown>;

export async function probeTarget(client: HttpClient): Promise<Probe> {
  const health = await probeApi(client.baseUrl);
  if (!health.ok) return { ok: false, reason: health.message };
  const target: TargetInfo = {
    baseUrl: client.baseUrl,
    version: String(health.health.version ?? "") || null,
    admin: false,
    clock: null,
    steps: null,
  };
  const admin = await client.send({ method: "GET", path: "/__mock" }, null);
  if (!admin.ok || admin.status !== 200 || !Array.isArray((admin.json as Obj | undefined)?.endpoints)) {
    return { ok: true, target };
  }
  target.admin = true;
  const clock = await client.send({ method: "GET", path: "/__mock/clock" }, null);
  const mode = clock.ok ? (clock.json as Obj | undefined)?.mode : undefined;
  target.clock = mode === "manual" || mode === "real" ? mode : null;
  const dc = await client.send({ method: "GET", path: "/__mock/deepcrawl" }, null);
  const steps = dc.ok ? ((dc.json as Obj | undefined)?.steps as DeepcrawlSteps | undefined) : undefined;
  if (steps && [steps.queuedMs, steps.waitingMs, steps.processingMs].every(Number.isFinite)) target.steps = steps;
  return { ok: true, target };
}
