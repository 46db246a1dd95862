// Shared setup of the engine tests: the contract, engines on a fixed clock, and contexts by seed.

import { loadContract } from "@plumbline-kit/contract";
import type { EngineContext } from "@plumbline-kit/platform/engines";
import { createSyntheticEngines, createSyntheticSiteCrawler } from "../engines/index.ts";

export const FIXED_NOW = new Date("2026-11-25T21:50:00.000Z");

export const contract = await loadContract();
export const engines = createSyntheticEngines({ contract, now: () => FIXED_NOW });
export const siteCrawler = createSyntheticSiteCrawler({ contract, now: () => FIXED_NOW });

export function ctx(seed = 1, variability: EngineContext["variability"] = "normal"): EngineContext {
  return { requestId: `req_${seed}`, variability, seed };
}

/** The value of a successful engine result (the test fails otherwise). */
export function ok<T>(result: { ok: true; value: T } | { ok: false; code: string }): T {
  if (!result.ok) throw new Error(`engine failed with ${result.code}`);
  return result.value;
}

export const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
