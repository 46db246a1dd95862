// Client compatibility (issue 26): behaviour the contract allows but the service's own clients break on. A finding
// fails the run (issue 35) with the client and what it relies on as its reason (basis "client"): the target breaks
// no rule of the interface text, yet every caller of the official client breaks; the lenient profile reports it as a
// warning. Phase "traffic": judged over every answer of the run; the
// echo and message checks also send a call of their own so they always have something to judge. They stand before
// the cross-cutting traffic checks in the registry, which therefore judge those calls too.
import { boundCases } from "../../spec/bounds.ts";
import { type Contract, fieldPath, type JsonSchema } from "../../spec/index.ts";
import { grouped, json, status } from "../check-helpers.ts";
import type { CheckDefinition, RunContext } from "../types.ts";

const TS_CLIENT = "@search1api/client 0.2.1";
const MCP_SERVER = "search1api-mcp 0.5.3";

type Json = Record<string, unknown>;

const answered = (ctx: RunContext, operationId: string) =>
  ctx.http.exchanges.filter((e) => e.operationId === operationId && e.response?.json !== undefined);

/** The states of an unfinished task: those the status enum lists before `completed` (D-deepcrawl-states). */
function unfinishedStates(contract: Contract): Set<string> {
  const s = contract.document.components?.schemas?.DeepcrawlStatusResponse as JsonSchema | undefined;
  const states = (s?.properties?.status?.enum ?? []).filter((v): v is string => typeof v === "string");
  return new Set(states.slice(0, Math.max(0, states.indexOf("completed"))));
}

const deepcrawlSuccess: CheckDefinition = {
  id: "client-deepcrawl-success-unfinished",
  title: "A deepcrawl status answer carries no `success` before the task has finished",
  severity: "major",
  section: "Deepcrawl task",
  basis: {
    kind: "client",
    client: TS_CLIENT,
    relies:
      "stops polling (waitForDeepcrawl, deepcrawl) at the first `success` it reads: `success: false` is a failed task (it throws DeepcrawlFailedError), `success: true` a completed one",
    decision: "D-deepcrawl-success",
  },
  operations: ["deepcrawlStatus"],
  phase: "traffic",
  async run(ctx) {
    const items = [];
    let unfinished = 0;
    const states = unfinishedStates(ctx.contract);
    for (const ex of answered(ctx, "deepcrawlStatus")) {
      const b = json<Json>(ex) ?? {};
      if (typeof b.status !== "string" || !states.has(b.status)) continue;
      unfinished++;
      if (typeof b.success === "boolean")
        items.push({
          message: `a ${b.status} task answered success: ${b.success}`,
          ex,
          expected: "no success member until completed or failed",
          actual: `success: ${b.success}`,
        });
    }
    if (unfinished === 0)
      return {
        failures: [],
        skip: "no status answer of an unfinished task was seen (run it with a deepcrawl check, e.g. deepcrawl-completes)",
      };
    return { failures: grouped(items), notes: [`${unfinished} status answers of unfinished tasks judged`] };
  },
};

/** The searchParameters members the client types as always present (it never checks them at run time). */
const TYPED_PRESENT = ["max_results", "crawl_results", "image", "include_sites", "exclude_sites"];
const ECHO_SCHEMA = { search: "SearchParameters", news: "NewsParameters" } as const;

function defaultsOf(contract: Contract, operationId: "search" | "news"): Map<string, unknown> {
  const s = contract.document.components?.schemas?.[ECHO_SCHEMA[operationId]] as JsonSchema | undefined;
  const props = s?.properties ?? {};
  return new Map(TYPED_PRESENT.filter((f) => f in props).map((f) => [f, props[f].default]));
}

const echoDefaults: CheckDefinition = {
  id: "client-search-echo-defaults",
  title: "searchParameters carries the effective value of every field the client types as present",
  severity: "minor",
  section: "Search response",
  basis: {
    kind: "client",
    client: TS_CLIENT,
    relies: `types ${TYPED_PRESENT.join(", ")} of searchParameters as always present and never checks: a caller reads undefined where it expects the default`,
    decision: "D-echo",
  },
  operations: ["search", "news"],
  phase: "traffic",
  cost: (_c, _a, scope) => scope.filter(["search", "news"]).length,
  async run(ctx) {
    for (const op of ctx.scope.filter(["search", "news"]))
      await ctx.http.call(this.id, "POST", ctx.contract.operation(op).path, { body: { query: "plumbline echo" } });
    const items = [];
    let judged = 0;
    for (const op of ["search", "news"] as const) {
      const defaults = defaultsOf(ctx.contract, op);
      for (const ex of answered(ctx, op).filter((e) => status(e) === 200)) {
        const b = json<Json>(ex) ?? {};
        const entries = Array.isArray(ex.sent)
          ? ((b.results as Array<{ success?: unknown; data?: Json }> | undefined) ?? [])
              .filter((e) => e.success === true && e.data)
              .map((e) => e.data as Json)
          : [b];
        for (const answer of entries) {
          judged++;
          const echo = (answer.searchParameters ?? {}) as Json;
          for (const [field, value] of defaults)
            if (!(field in echo))
              items.push({
                message: `${op} searchParameters lacks ${field}`,
                ex,
                expected: `${field}: ${JSON.stringify(value)} (the schema's default when not sent)`,
                actual: "(absent)",
              });
        }
      }
    }
    return { failures: grouped(items), notes: [`${judged} search and news answers judged`] };
  },
};

/** The ways a message can name a violated field: its JSON Pointer, its path, or its last name. */
function namings(field: string): string[] {
  const last = field.split("/").pop() ?? "";
  return [field, fieldPath(field), last].filter((n) => n !== "" && n !== "/");
}

const validationMessage: CheckDefinition = {
  id: "client-validation-message-names-field",
  title: "A 422's message names a violated field, not only errors[]",
  severity: "minor",
  section: "Errors",
  basis: {
    kind: "client",
    client: `${TS_CLIENT} and ${MCP_SERVER}`,
    relies:
      "show their user, or the model calling the MCP tool, only the top-level message of an error (`API error: 422 <message>`); errors[] is never shown",
    decision: "D-validation-message",
  },
  operations: (c) => [...new Set(boundCases(c).map((b) => b.operationId))],
  phase: "traffic",
  async run(ctx) {
    // one rejection of its own, on the first operation in scope with a bound to break (free: D-charging)
    const own = boundCases(ctx.contract).find(
      (b) => !b.valid && b.field !== "" && b.keyword === "maximum" && ctx.scope.has(b.operationId),
    );
    if (own) await ctx.http.call(this.id, "POST", ctx.contract.operation(own.operationId).path, { body: own.body });
    const items = [];
    let judged = 0;
    for (const ex of ctx.http.exchanges.filter((e) => e.operationId !== null && status(e) === 422)) {
      const b = json<{ message?: unknown; errors?: Array<{ field?: unknown }> }>(ex);
      const fields = (b?.errors ?? []).map((e) => e.field).filter((f): f is string => typeof f === "string");
      if (fields.length === 0) continue; // errors[] itself is judged by bounds-rejection-names-field
      judged++;
      const message = typeof b?.message === "string" ? b.message : "";
      if (fields.some((f) => namings(f).some((n) => message.includes(n)))) continue;
      items.push({
        message: `${ex.operationId} 422: the message names no violated field`,
        ex,
        expected: `a message naming ${fieldPath(fields[0])}`,
        actual: JSON.stringify(message),
      });
    }
    if (judged === 0) return { failures: [], skip: "no 422 with errors[] was seen" };
    return { failures: grouped(items), notes: [`${judged} 422 answers judged`] };
  },
};

const trendingNull: CheckDefinition = {
  id: "client-trending-description-null",
  title: "A trending result without a description leaves the field out rather than sending null",
  severity: "minor",
  section: "Trending result and response",
  basis: {
    kind: "client",
    client: MCP_SERVER,
    relies:
      'declares description an optional string in its trending tool\'s output schema: a null fails the tool call ("Output validation error: … description must be string")',
    decision: "D-trending-description",
  },
  operations: ["trending"],
  phase: "traffic",
  async run(ctx) {
    const items = [];
    let judged = 0;
    for (const ex of answered(ctx, "trending").filter((e) => status(e) === 200)) {
      const results = json<{ results?: Array<{ description?: unknown }> }>(ex)?.results ?? [];
      judged++;
      const nulls = results.filter((r) => r.description === null).length;
      if (nulls)
        items.push({
          message: "trending results with description: null",
          ex,
          expected: "no description member",
          actual: `${nulls} of ${results.length}`,
        });
    }
    if (judged === 0) return { failures: [], skip: "no trending answer was seen" };
    return { failures: grouped(items), notes: [`${judged} trending answers judged`] };
  },
};

export const CLIENT_CHECKS = [deepcrawlSuccess, echoDefaults, validationMessage, trendingNull];
