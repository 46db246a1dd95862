// A scenario checked against the contract and turned into ready-to-send request templates. Bodies come from
// the spec's request examples; every body is validated by the spec module, so a "valid" request that the
// contract refuses (or an "invalid" one it accepts) is a scenario error before any traffic is sent.
import type { Contract } from "@plumbline-kit/contract";
import type { RequestEntry } from "./scenario-file.ts";
import { fillVars } from "./scenario-vars.ts";

export const TEMPLATE_TAG_HEADER = "x-plumbline-template";

export interface RequestTemplate {
  index: number;
  /** operationId, the key of the per-operation figures */
  operationId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** the parsed body, for pricing (undefined for raw and absent bodies) */
  value: unknown;
  batch: boolean;
  invalid: boolean;
  expect: ReadonlySet<number>;
  /** the most this request can cost: the whole body priced as if every entry succeeds */
  maxCredits: number;
}

export type TemplateBuild = { ok: true; template: RequestTemplate } | { ok: false; error: string };

export interface PlanOptions {
  apiKey: string;
  /** substituted into "{{name}}" in bodies, queries and path parameters: setup captures, `fixture` */
  vars?: Record<string, string>;
  /** the peer comparison tags each request with its template's index, so a bare server can answer its bytes */
  tagTemplates?: boolean;
}

function resolveBody(
  entry: RequestEntry,
  contract: Contract,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (entry.example === undefined) return { ok: true, value: entry.body };
  const examples = contract.operation(entry.operation).requestExamples;
  if (!(entry.example in examples))
    return {
      ok: false,
      error: `${entry.operation} has no request example "${entry.example}" (known: ${Object.keys(examples).join(", ") || "none"})`,
    };
  return { ok: true, value: examples[entry.example] };
}

function successStatus(contract: Contract, operationId: string): number {
  return contract.operation(operationId).statuses.find((s) => s >= 200 && s < 300) ?? 200;
}

export function buildTemplate(
  scenarioEntry: RequestEntry,
  index: number,
  contract: Contract,
  options: PlanOptions,
): TemplateBuild {
  const id = scenarioEntry.operation;
  if (!contract.contractOperations.some((o) => o.operationId === id))
    return { ok: false, error: `unknown operation "${id}"` };
  const op = contract.operation(id);
  // placeholders are filled first: the contract judges the body that is sent
  const filled = fillVars(
    {
      body: scenarioEntry.body,
      rawBody: scenarioEntry.rawBody,
      query: scenarioEntry.query,
      params: scenarioEntry.params,
    },
    options.vars ?? {},
  );
  if (!filled.ok) return { ok: false, error: `${id}: ${filled.error}` };
  const entry: RequestEntry = { ...scenarioEntry, ...filled.value };
  const body = resolveBody(entry, contract);
  if (!body.ok) return body;
  const params = entry.params ?? {};
  const missing = op.parameters.filter((p) => p.in === "path" && params[p.name] === undefined).map((p) => p.name);
  if (missing.length) return { ok: false, error: `${id} needs path parameter(s) ${missing.join(", ")}` };
  const paramCheck = contract.validators.checkParameters(id, { query: entry.query ?? {}, path: params });
  if (!paramCheck.ok && !entry.invalid)
    return { ok: false, error: `${id}: ${paramCheck.errors.map((e) => e.message).join("; ")}` };

  let expect = entry.expect;
  const hasBody = body.value !== undefined || entry.rawBody !== undefined;
  if (op.method !== "get" && body.value !== undefined) {
    const check = contract.validators.checkBody(id, body.value);
    if (check.ok && entry.invalid) return { ok: false, error: `${id}: a body marked invalid passes the contract` };
    if (!check.ok && !entry.invalid)
      return {
        ok: false,
        error: `${id}: body refused by the contract (${check.kind === "schema" ? check.errors.map((e) => e.message).join("; ") : "shape"}); mark it "invalid": true if meant`,
      };
    if (!check.ok) expect ??= [check.kind === "shape" ? 400 : 422];
  }
  if (entry.rawBody !== undefined) expect ??= [400];
  if (entry.invalid && !paramCheck.ok) expect ??= [op.statuses.includes(422) ? 422 : 400];
  if (entry.auth === "none" && op.auth !== "none") expect ??= [op.pricing ? 402 : 401];
  expect ??= [successStatus(contract, id)];

  const query = new URLSearchParams(entry.query ?? {}).toString();
  const path =
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name])) + (query ? `?${query}` : "");
  const headers: Record<string, string> = options.tagTemplates ? { [TEMPLATE_TAG_HEADER]: String(index) } : {};
  if (entry.auth !== "none" && op.auth !== "none") headers.authorization = `Bearer ${options.apiKey}`;
  if (hasBody) headers["content-type"] = "application/json";
  const raw = entry.rawBody ?? (body.value === undefined ? undefined : JSON.stringify(body.value));
  const valid = !entry.invalid && entry.auth !== "none" && entry.rawBody === undefined;
  return {
    ok: true,
    template: {
      index,
      operationId: id,
      method: op.method.toUpperCase(),
      path,
      headers,
      body: raw === undefined ? undefined : Buffer.from(raw),
      value: body.value,
      batch: Array.isArray(body.value),
      invalid: !valid,
      expect: new Set(expect),
      maxCredits: valid ? contract.prices.requestCredits(id, body.value) : 0,
    },
  };
}

export interface RequestPlan {
  templates: RequestTemplate[];
  /** cumulative weights, for the picker */
  cumulative: number[];
}

export type PlanBuild = { ok: true; plan: RequestPlan } | { ok: false; error: string };

export function buildPlan(entries: RequestEntry[], contract: Contract, options: PlanOptions): PlanBuild {
  const templates: RequestTemplate[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [i, entry] of entries.entries()) {
    const built = buildTemplate(entry, i, contract, options);
    if (!built.ok) return { ok: false, error: `requests[${i}]: ${built.error}` };
    templates.push(built.template);
    total += entry.weight ?? 1;
    cumulative.push(total);
  }
  return { ok: true, plan: { templates, cumulative } };
}
