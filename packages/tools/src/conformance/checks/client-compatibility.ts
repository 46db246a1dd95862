// Client compatibility (issue 26): behaviour the contract allows but the service's own clients break on. A finding
// fails the run (issue 35) with the client and what it relies on as its reason (basis "client"): the target breaks
// no rule of the interface text, yet every caller of the official client breaks; the lenient profile reports it as a
// warning. Phase "traffic": judged over every answer of the run; the
// echo and message checks also send a call of their own so they always have something to judge. They stand before
// the cross-cutting traffic checks in the registry, which therefore judge those calls too.
import { boundCases } from "@plumbline-kit/contract/bounds";
import { unfinishedStates } from "@plumbline-kit/contract/checks/index";
import { answerFailures } from "../answer-judge.ts";
import { json, status } from "../check-helpers.ts";
import type { CheckDefinition, RunContext } from "../types.ts";

const TS_CLIENT = "@search1api/client 0.2.1";
const MCP_SERVER = "search1api-mcp 0.5.3";

type Json = Record<string, unknown>;

const answered = (ctx: RunContext, operationId: string) =>
  ctx.http.exchanges.filter((e) => e.operationId === operationId && e.response?.json !== undefined);

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
    const states = unfinishedStates(ctx.contract);
    const polls = answered(ctx, "deepcrawlStatus").filter((ex) => states.has(String(json<Json>(ex)?.status)));
    const unfinished = polls.length;
    const ids = new Set(polls.map((ex) => ex.id));
    const failures = answerFailures(
      ctx,
      [this.id],
      (ex) => ids.has(ex.id),
      () => "",
    );
    if (unfinished === 0)
      return {
        failures: [],
        skip: "no status answer of an unfinished task was seen (run it with a deepcrawl check, e.g. deepcrawl-completes)",
      };
    return { failures, notes: [`${unfinished} status answers of unfinished tasks judged`] };
  },
};

/** The searchParameters members the client types as always present (it never checks them at run time). */
const TYPED_PRESENT = ["max_results", "crawl_results", "image", "include_sites", "exclude_sites"];

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
    const judged = answered(ctx, "search")
      .concat(answered(ctx, "news"))
      .filter((e) => status(e) === 200).length;
    const failures = answerFailures(
      ctx,
      [this.id],
      (e) => e.operationId === "search" || e.operationId === "news",
      () => "",
    );
    return { failures, notes: [`${judged} search and news answers judged`] };
  },
};

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
    const seen = ctx.http.exchanges.filter((e) => e.operationId !== null && status(e) === 422);
    const judged = seen.filter((e) => {
      const errors = json<{ errors?: Array<{ field?: unknown }> }>(e)?.errors ?? [];
      return Array.isArray(errors) && errors.some((x) => typeof x?.field === "string");
    }).length;
    const failures = answerFailures(ctx, [this.id], (e) => status(e) === 422);
    if (judged === 0) return { failures: [], skip: "no 422 with errors[] was seen" };
    return { failures, notes: [`${judged} 422 answers judged`] };
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
    const judged = answered(ctx, "trending").filter((e) => status(e) === 200).length;
    const failures = answerFailures(
      ctx,
      [this.id],
      (e) => e.operationId === "trending",
      () => "",
    );
    if (judged === 0) return { failures: [], skip: "no trending answer was seen" };
    return { failures, notes: [`${judged} trending answers judged`] };
  },
};

export const CLIENT_CHECKS = [deepcrawlSuccess, echoDefaults, validationMessage, trendingNull];
