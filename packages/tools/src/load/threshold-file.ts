// A thresholds file (load/thresholds/*.json): expressions per key ("overall", an operationId, "flow:deepcrawl"),
// defaults for every scenario with per-scenario replacements, the credit-accounting switch and the baseline
// tolerance. Budgets live in committed files and only move on purpose (style 9).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseThreshold, type Threshold } from "./threshold-expression.ts";

export const THRESHOLD_DIR = fileURLToPath(new URL("./thresholds/", import.meta.url));
export const DEFAULT_THRESHOLDS = `${THRESHOLD_DIR}mock.json`;

export const FLOW_KEYS = ["flow:deepcrawl"];

export interface ThresholdSet {
  source: string;
  entries: Array<{ key: string; threshold: Threshold }>;
  creditAccounting: boolean;
  baseline: { maxRegressionPercent: number; minDeltaMs: number };
}

/** No budgets at all (the peer comparison measures, it does not judge). */
export const NO_THRESHOLDS: ThresholdSet = {
  source: "none",
  entries: [],
  creditAccounting: false,
  baseline: { maxRegressionPercent: 20, minDeltaMs: 1 },
};

export type ThresholdSetRead = { ok: true; set: ThresholdSet } | { ok: false; error: string };

type KeyedLists = Record<string, unknown>;

const TOP_LEVEL = new Set(["$comment", "description", "thresholds", "scenarios", "creditAccounting", "baseline"]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** Parses a thresholds document for one scenario; `knownKeys` are the operationIds of the contract. */
export function parseThresholdSet(
  raw: unknown,
  scenario: string,
  knownKeys: string[],
  source: string,
): ThresholdSetRead {
  const fail = (error: string): ThresholdSetRead => ({ ok: false, error: `thresholds ${source}: ${error}` });
  if (!isRecord(raw)) return fail("not a JSON object");
  const unknown = Object.keys(raw).filter((k) => !TOP_LEVEL.has(k));
  if (unknown.length) return fail(`unknown field(s) ${unknown.join(", ")} (${[...TOP_LEVEL].join(", ")})`);
  const allowed = new Set(["overall", ...knownKeys, ...FLOW_KEYS]);
  const lists: Array<[string, KeyedLists]> = [];
  if (raw.thresholds !== undefined) {
    if (!isRecord(raw.thresholds)) return fail(`"thresholds" must map keys to lists of expressions`);
    lists.push(["thresholds", raw.thresholds]);
  }
  if (raw.scenarios !== undefined && !isRecord(raw.scenarios)) return fail(`"scenarios" must map scenario names`);
  const own = (raw.scenarios as Record<string, unknown> | undefined)?.[scenario];
  if (own !== undefined) {
    if (!isRecord(own)) return fail(`scenarios.${scenario} must map keys to lists of expressions`);
    lists.push([`scenarios.${scenario}`, own]);
  }
  // a scenario's list for a key replaces the default list for that key (a looser budget must be able to win)
  const merged = new Map<string, { where: string; list: unknown }>();
  for (const [where, keyed] of lists)
    for (const [key, list] of Object.entries(keyed)) merged.set(key, { where: `${where}.${key}`, list });
  const entries: ThresholdSet["entries"] = [];
  for (const [key, { where, list }] of merged) {
    if (!allowed.has(key))
      return fail(`${where}: unknown key "${key}" (overall, an operationId or ${FLOW_KEYS.join(", ")})`);
    if (!Array.isArray(list) || list.some((e) => typeof e !== "string"))
      return fail(`${where} must be a list of strings`);
    for (const text of list as string[]) {
      const parsed = parseThreshold(text);
      if (!parsed.ok) return fail(`${where}: ${parsed.error}`);
      entries.push({ key, threshold: parsed.threshold });
    }
  }
  const baseline = isRecord(raw.baseline) ? raw.baseline : {};
  const pct = baseline.maxRegressionPercent ?? 20;
  const delta = baseline.minDeltaMs ?? 1;
  if (typeof pct !== "number" || pct < 0) return fail("baseline.maxRegressionPercent must be a number >= 0");
  if (typeof delta !== "number" || delta < 0) return fail("baseline.minDeltaMs must be a number >= 0");
  if (raw.creditAccounting !== undefined && typeof raw.creditAccounting !== "boolean")
    return fail("creditAccounting must be true or false");
  return {
    ok: true,
    set: {
      source,
      entries,
      creditAccounting: raw.creditAccounting !== false,
      baseline: { maxRegressionPercent: pct, minDeltaMs: delta },
    },
  };
}

const isPath = (nameOrPath: string) => /[/\\]|\.json$/.test(nameOrPath);

/** A file of load/thresholds/ by name ("mock", "reference"), or a path. */
export function thresholdPath(nameOrPath: string): string {
  return isPath(nameOrPath) ? nameOrPath : join(THRESHOLD_DIR, `${nameOrPath}.json`);
}

export function readThresholdSet(nameOrPath: string, scenario: string, knownKeys: string[]): ThresholdSetRead {
  const path = thresholdPath(nameOrPath);
  if (!isPath(nameOrPath) && !existsSync(path)) {
    const known = readdirSync(THRESHOLD_DIR)
      .filter((f) => f.endsWith(".json"))
      .map((f) => basename(f, ".json"));
    return { ok: false, error: `no thresholds "${nameOrPath}" in load/thresholds/ (known: ${known.join(", ")})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    return { ok: false, error: `thresholds ${path}: ${(err as Error).message}` };
  }
  return parseThresholdSet(raw, scenario, knownKeys, path);
}
