// Scenarios are data (load/scenarios/NAME.json): which operations, with which bodies and weights. This file
// reads one and checks its shape; request-plan.ts checks it against the contract.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SCENARIO_DIR = fileURLToPath(new URL("./scenarios/", import.meta.url));

export interface RequestEntry {
  operation: string;
  weight?: number;
  /** a request example of the operation in the spec, by name */
  example?: string;
  body?: unknown;
  /** sent as is: a malformed body the target must refuse with 400 */
  rawBody?: string;
  query?: Record<string, string>;
  /** path parameters; "{{name}}" takes a value captured by a setup step */
  params?: Record<string, string>;
  /** "none" sends no credential */
  auth?: "key" | "none";
  /** true for a body that breaks the contract on purpose; the plan checks it really does */
  invalid?: boolean;
  /** statuses that count as success (default: the operation's 2xx, or 400/422 for invalid bodies) */
  expect?: number[];
}

export interface SetupStep extends RequestEntry {
  /** variable name → JSON Pointer into the answer */
  capture?: Record<string, string>;
}

export interface FlowSpec {
  example?: string;
  body?: unknown;
  /** how often a running task is polled */
  pollIntervalMs?: number;
  /** a task not completed by then counts as incomplete */
  timeoutMs?: number;
}

export interface Scenario {
  name: string;
  description: string;
  kind: "requests" | "deepcrawl-flow";
  setup: SetupStep[];
  requests: RequestEntry[];
  flow: FlowSpec | null;
}

export type ScenarioRead = { ok: true; scenario: Scenario } | { ok: false; error: string };

export function listScenarios(): string[] {
  return readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => basename(f, ".json"))
    .sort();
}

/** A name from load/scenarios/, or a path to a scenario file. */
export function readScenario(nameOrPath: string): ScenarioRead {
  const path = /[/\\]|\.json$/.test(nameOrPath) ? nameOrPath : join(SCENARIO_DIR, `${nameOrPath}.json`);
  if (!existsSync(path))
    return { ok: false, error: `no scenario "${nameOrPath}"; known: ${listScenarios().join(", ")}` };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    return { ok: false, error: `scenario ${path}: ${(err as Error).message}` };
  }
  const problem = shapeProblem(raw);
  if (problem) return { ok: false, error: `scenario ${path}: ${problem}` };
  const s = raw as Record<string, unknown>;
  return {
    ok: true,
    scenario: {
      name: typeof s.name === "string" ? s.name : basename(path, ".json"),
      description: String(s.description ?? ""),
      kind: s.kind === "deepcrawl-flow" ? "deepcrawl-flow" : "requests",
      setup: (s.setup ?? []) as SetupStep[],
      requests: (s.requests ?? []) as RequestEntry[],
      flow: (s.flow ?? null) as FlowSpec | null,
    },
  };
}

const ENTRY_KEYS = new Set([
  "operation",
  "weight",
  "example",
  "body",
  "rawBody",
  "query",
  "params",
  "auth",
  "invalid",
  "expect",
  "capture",
]);

function entryProblem(e: unknown, where: string): string | null {
  if (!e || typeof e !== "object" || Array.isArray(e)) return `${where} is not an object`;
  const entry = e as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
  if (unknown.length) return `${where} has unknown field(s) ${unknown.join(", ")}`;
  if (typeof entry.operation !== "string") return `${where}.operation must be an operationId`;
  if (entry.weight !== undefined && !(typeof entry.weight === "number" && entry.weight > 0))
    return `${where}.weight must be a number > 0`;
  const bodies = ["example", "body", "rawBody"].filter((k) => entry[k] !== undefined);
  if (bodies.length > 1) return `${where} has ${bodies.join(" and ")}: give one body`;
  if (entry.auth !== undefined && entry.auth !== "key" && entry.auth !== "none")
    return `${where}.auth must be "key" or "none"`;
  if (entry.expect !== undefined && !(Array.isArray(entry.expect) && entry.expect.every(Number.isInteger)))
    return `${where}.expect must be a list of statuses`;
  return null;
}

function shapeProblem(raw: unknown): string | null {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return "not a JSON object";
  const s = raw as Record<string, unknown>;
  if (s.kind !== undefined && s.kind !== "requests" && s.kind !== "deepcrawl-flow")
    return `kind must be "requests" or "deepcrawl-flow"`;
  for (const list of ["setup", "requests"] as const) {
    if (s[list] === undefined) continue;
    if (!Array.isArray(s[list])) return `${list} must be a list`;
    for (const [i, e] of (s[list] as unknown[]).entries()) {
      const p = entryProblem(e, `${list}[${i}]`);
      if (p) return p;
    }
  }
  if (s.kind === "deepcrawl-flow") {
    if (!s.flow || typeof s.flow !== "object") return `a deepcrawl-flow scenario needs a "flow" object`;
  } else if (!Array.isArray(s.requests) || s.requests.length === 0) return `"requests" must list at least one request`;
  return null;
}
