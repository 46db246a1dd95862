// Picks the next request of a weighted mix. Seeded (mulberry32), so a run's mix can be reproduced.
import type { RequestPlan, RequestTemplate } from "./request-plan.ts";

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createPicker(plan: RequestPlan, seed = 1): () => RequestTemplate {
  const random = seededRandom(seed);
  const { templates, cumulative } = plan;
  const total = cumulative[cumulative.length - 1];
  return () => {
    const r = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return templates[lo];
  };
}
