// Numbers for the value generator: inside minimum/maximum and their exclusive forms (2020-12 numbers, and
// draft-4 booleans), a multiple of multipleOf as ajv checks it (data / multipleOf is an integer), and a range
// that suits the property's name when the schema leaves it open (a `year` looks like a year).
import type { Rng } from "./rng.ts";
import type { Schema } from "./schema-merge.ts";

function hintRange(name: string): [number, number] {
  const n = name.toLowerCase();
  if (/year/.test(n)) return [1990, 2026];
  if (/(rating|stars|score)/.test(n)) return [1, 5];
  if (/(price|cost|amount)/.test(n)) return [1, 500];
  if (/(percent|pct|ratio)/.test(n)) return [0, 100];
  if (/age/.test(n)) return [18, 80];
  if (/(lat)/.test(n)) return [-60, 60];
  if (/(lon|lng)/.test(n)) return [-150, 150];
  return [0, 1000];
}

function bounds(s: Schema, name: string): { lo: number; hi: number; loOpen: boolean; hiOpen: boolean } {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  let loOpen = false;
  let hiOpen = false;
  if (typeof s.minimum === "number") lo = s.minimum;
  if (typeof s.maximum === "number") hi = s.maximum;
  if (s.exclusiveMinimum === true) loOpen = true;
  if (s.exclusiveMaximum === true) hiOpen = true;
  if (typeof s.exclusiveMinimum === "number" && s.exclusiveMinimum >= lo) [lo, loOpen] = [s.exclusiveMinimum, true];
  if (typeof s.exclusiveMaximum === "number" && s.exclusiveMaximum <= hi) [hi, hiOpen] = [s.exclusiveMaximum, true];
  const [hLo, hHi] = hintRange(name);
  if (lo === Number.NEGATIVE_INFINITY && hi === Number.POSITIVE_INFINITY) [lo, hi] = [hLo, hHi];
  else if (lo === Number.NEGATIVE_INFINITY) lo = hi - Math.max(1000, Math.abs(hi));
  else if (hi === Number.POSITIVE_INFINITY) hi = lo + Math.max(1000, Math.abs(lo));
  // a hint narrower than the schema's range reads better, and stays inside it
  if (hLo > lo && hHi < hi && hLo <= hHi) return { lo: hLo, hi: hHi, loOpen: false, hiOpen: false };
  return { lo, hi, loOpen, hiOpen };
}

const inside = (v: number, b: ReturnType<typeof bounds>) =>
  (b.loOpen ? v > b.lo : v >= b.lo) && (b.hiOpen ? v < b.hi : v <= b.hi);

export function generateNumber(s: Schema, integer: boolean, name: string, rng: Rng): number {
  const b = bounds(s, name);
  const step = typeof s.multipleOf === "number" && s.multipleOf > 0 ? s.multipleOf : integer ? 1 : 0;
  if (step > 0) {
    const kLo = b.loOpen ? Math.floor(b.lo / step) + 1 : Math.ceil(b.lo / step);
    const kHi = b.hiOpen ? Math.ceil(b.hi / step) - 1 : Math.floor(b.hi / step);
    for (let attempt = 0; attempt < 24; attempt++) {
      const k = rng.int(kLo, Math.max(kLo, kHi));
      const v = Number((k * step).toPrecision(15));
      if (inside(v, b) && Number.isInteger(v / step) && (!integer || Number.isInteger(v))) return v;
    }
    return inside(0, b) ? 0 : b.lo;
  }
  const v = Math.round((b.lo + rng.float() * (b.hi - b.lo)) * 100) / 100;
  return inside(v, b) ? v : (b.lo + b.hi) / 2;
}
