// Seeded randomness for the synthetic engines. Every answer must be a pure function of ctx.seed and the request
// (the mock's determinism promise), so a generator is derived from a hash of both and never from Math.random.
import { hash } from "node:crypto";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";
import { stableJson } from "./stable-json.ts";

export interface Rng {
  /** integer in [min, max], both included */
  int(min: number, max: number): number;
  /** float in [0, 1) */
  float(): number;
  /** true with probability p */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** k distinct items in random order (all of them when k >= length) */
  sample<T>(items: readonly T[], k: number): T[];
  /** an independent generator for a named sub-part, so adding draws in one part never shifts another */
  fork(...parts: unknown[]): Rng;
}

/** A generator seeded by sha256(seed, stable JSON of each part). */
export function createRng(seed: number, ...parts: unknown[]): Rng {
  // one-shot crypto.hash: several times cheaper than createHash().update().digest() per request (measured)
  const digest = hash("sha256", stableJson([seed, ...parts]), "buffer");
  const state = [digest.readInt32LE(0), digest.readInt32LE(4), digest.readInt32LE(8), digest.readInt32LE(12) | 1];
  return new SeededRng(xoroshiro128plusFromState(state), digest.toString("hex", 0, 16));
}

// A class, not an object of closures: one generator is made per search hit, so per-instance closures showed
// up in profiles of the mock under load.
class SeededRng implements Rng {
  private readonly gen: RandomGenerator;
  private readonly id: string;
  constructor(gen: RandomGenerator, id: string) {
    this.gen = gen;
    this.id = id;
  }
  int(min: number, max: number): number {
    return max <= min ? min : uniformInt(this.gen, min, max);
  }
  float(): number {
    return uniformFloat64(this.gen);
  }
  chance(p: number): boolean {
    return uniformFloat64(this.gen) < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[uniformInt(this.gen, 0, items.length - 1)];
  }
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = uniformInt(this.gen, 0, i);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.max(0, k));
  }
  fork(...parts: unknown[]): Rng {
    return createRng(0, this.id, ...parts);
  }
}
