// What an exported script runs, decided once from plumbline's own definitions: the scenario's requests built and
// checked against the contract by request-plan.ts (bodies from the spec's examples, `{{fixture}}` filled, prices
// from the spec), its setup steps and deepcrawl flow, the arrival phases, the thresholds translated per engine
// (export-checks.ts) and the target's rate limits. The Artillery and k6 writers render this plan; the runtime
// bundled into their scripts (runtime/) reads it. Nothing here sends traffic but the optional limits read.
import type { Contract } from "@plumbline-kit/contract";
import type { Pricing } from "@plumbline-kit/contract/operations";
import type { LimitPolicy, LoadRateLimitSetting } from "../rate-limits.ts";
import { buildTemplate, type RequestTemplate } from "../request-plan.ts";
import type { RequestEntry, Scenario, SetupStep } from "../scenario-file.ts";
import { FIXTURE_VAR } from "../scenario-vars.ts";

/** The environment variable the exported scripts read the API key from (as `plumbline load` does). */
import { API_KEY_ENV } from "./export-defaults.ts";

export { API_KEY_ENV };

/** One request as the exported script sends it, and as its runtime classifies and prices the answer. */
export interface PlanTemplate {
  /** t0… the scenario's requests, s0… setup steps, f0 the flow's submit, p0 its poll, z0 its zip download */
  id: string;
  operationId: string;
  method: string;
  /** the path and query; a setup capture appears as `{{name}}` */
  path: string;
  /** sent with `Authorization: Bearer <key from $PLUMBLINE_API_KEY>` */
  auth: boolean;
  /** headers besides the credential (content-type) */
  headers: Record<string, string>;
  /** the bytes sent, as text; `{{name}}` for a setup capture */
  body: string | null;
  /** the parsed body, for pricing batches entry by entry */
  value: unknown;
  batch: boolean;
  /** sent invalid or unpaid on purpose: free, and refused as `expect` says */
  invalid: boolean;
  /** statuses that count as success */
  expect: number[];
  /** the most this request can cost (every entry charged), from the spec's price table */
  maxCredits: number;
  weight: number;
}

export interface PlanSetupStep extends PlanTemplate {
  /** variable name → JSON Pointer into the answer */
  capture: Record<string, string>;
}

export interface PlanFlow {
  submit: PlanTemplate;
  poll: PlanTemplate;
  pollIntervalMs: number;
  timeoutMs: number;
}

export interface PlanPhases {
  /** seconds ramping from 1 arrival/s to `rate` (not measured; charges still count) */
  warmupSeconds: number;
  /** measured seconds at `rate` */
  durationSeconds: number;
  /** arrivals (requests, or flows) per second of one load generator (Artillery's --count N multiplies it) */
  rate: number;
  /** the rate asked for, before the target's limits capped it */
  requestedRate: number;
}

export interface PlanRateLimits {
  /** what the exported runtime keeps to: the limiter's setting ("ignore": none, a 429 is an error) */
  setting: LoadRateLimitSetting;
  /**
   * advertised: read from the target at export; stated: --rate-limit; none: the target advertised none; unread: no
   * key to read them with (the script learns them from its answers); ignored: --ignore-rate-limits
   */
  source: "advertised" | "stated" | "none" | "unread" | "ignored";
  policies: LimitPolicy[];
  /** requests per second the account's policy allows, or null */
  allowedRate: number | null;
  detail: string;
}

export interface ExportPlan {
  scenario: { name: string; description: string; kind: Scenario["kind"] };
  target: string;
  fixture: string | null;
  apiKeyEnv: string;
  setup: PlanSetupStep[];
  templates: PlanTemplate[];
  flow: PlanFlow | null;
  phases: PlanPhases;
  rateLimits: PlanRateLimits;
  /** every operation's pricing, for the runtime's copy of the spec's price table */
  pricing: Array<{ operationId: string; pricing: Pricing | null }>;
  /** the keys the scenario exercises: "overall", its operationIds, "flow:deepcrawl" */
  keys: string[];
}

export type Built<T> = { ok: true; value: T } | { ok: false; error: string };

/** A setup capture stands in the contract check as this value, and in the script as `{{name}}`. */
const sentinel = (name: string) => `PLUMBLINEVAR${name}END`;
const SENTINEL_RE = /PLUMBLINEVAR(\w+?)END/g;
const restoreVars = (text: string) => text.replace(SENTINEL_RE, (_, name: string) => `{{${name}}}`);

function planTemplate(
  id: string,
  entry: RequestEntry,
  contract: Contract,
  vars: Record<string, string>,
): Built<PlanTemplate> {
  const built = buildTemplate(entry, 0, contract, { apiKey: "-", vars });
  if (!built.ok) return built;
  const t: RequestTemplate = built.template;
  const { authorization, ...headers } = t.headers;
  const body = t.body === undefined ? null : restoreVars(t.body.toString());
  // Artillery fills "{{…}}" in what it sends: a body holding one (other than a setup capture) cannot be exported
  if (body && /\{\{/.test(body.replace(/\{\{\w+\}\}/g, "")))
    return { ok: false, error: `${id} (${t.operationId}): its body holds "{{", which Artillery would template` };
  return {
    ok: true,
    value: {
      id,
      operationId: t.operationId,
      method: t.method,
      path: restoreVars(t.path.replace(/%7B%7B(\w+)%7D%7D/g, "{{$1}}")),
      auth: authorization !== undefined,
      headers,
      body,
      value: t.value,
      batch: t.batch,
      invalid: t.invalid,
      expect: [...t.expect].sort((a, b) => a - b),
      maxCredits: t.maxCredits,
      weight: entry.weight ?? 1,
    },
  };
}

export interface PlanInput {
  scenario: Scenario;
  contract: Contract;
  target: URL;
  fixture: string | null;
  phases: PlanPhases;
  rateLimits: PlanRateLimits;
}

export function buildExportPlan(input: PlanInput): Built<ExportPlan> {
  const { scenario, contract } = input;
  const vars: Record<string, string> = input.fixture === null ? {} : { [FIXTURE_VAR]: input.fixture };
  const setup: PlanSetupStep[] = [];
  for (const [i, step] of scenario.setup.entries()) {
    const t = planTemplate(`s${i}`, step, contract, vars);
    if (!t.ok) return { ok: false, error: `setup[${i}]: ${t.error}` };
    setup.push({ ...t.value, capture: (step as SetupStep).capture ?? {} });
    for (const name of Object.keys((step as SetupStep).capture ?? {})) vars[name] = sentinel(name);
  }
  const templates: PlanTemplate[] = [];
  for (const [i, entry] of scenario.requests.entries()) {
    const t = planTemplate(`t${i}`, entry, contract, vars);
    if (!t.ok) return { ok: false, error: `requests[${i}]: ${t.error}` };
    templates.push(t.value);
  }
  let flow: PlanFlow | null = null;
  if (scenario.kind === "deepcrawl-flow") {
    const spec = scenario.flow ?? {};
    const submit = planTemplate(
      "f0",
      { operation: "deepcrawl", example: spec.example, body: spec.example ? undefined : spec.body },
      contract,
      vars,
    );
    if (!submit.ok) return { ok: false, error: `flow: ${submit.error}` };
    const poll = planTemplate(
      "p0",
      { operation: "deepcrawlStatus", params: { taskId: sentinel("taskId") } },
      contract,
      { ...vars },
    );
    if (!poll.ok) return { ok: false, error: `flow: ${poll.error}` };
    flow = {
      submit: submit.value,
      poll: poll.value,
      pollIntervalMs: spec.pollIntervalMs ?? 250,
      timeoutMs: spec.timeoutMs ?? 60_000,
    };
  }
  const ops = new Set(templates.map((t) => t.operationId));
  if (flow) {
    ops.add(flow.submit.operationId);
    ops.add(flow.poll.operationId);
  }
  const keys = ["overall", ...[...ops].sort(), ...(flow ? ["flow:deepcrawl"] : [])];
  return {
    ok: true,
    value: {
      scenario: { name: scenario.name, description: scenario.description, kind: scenario.kind },
      target: input.target.href.replace(/\/$/, ""),
      fixture: input.fixture,
      apiKeyEnv: API_KEY_ENV,
      setup,
      templates,
      flow,
      phases: input.phases,
      rateLimits: input.rateLimits,
      pricing: contract.operations.map((o) => ({ operationId: o.operationId, pricing: o.pricing ?? null })),
      keys,
    },
  };
}
