// Shared probe: one deepcrawl task from start to end (interface-spec "POST /deepcrawl", "States and transitions").
// The start is measured between balance readings (its price), the polls between two more (polling is free), and
// the packaged result is downloaded from zipUrl without credentials (it is a locator, not an API call).
import { baseBody } from "@plumbline-kit/contract/bounds";
import { type Balance, balance, json } from "../check-helpers.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";
import { withReachableUrls } from "./target-urls.ts";

export interface DeepcrawlRun {
  body: unknown;
  start: Exchange;
  before: Balance;
  afterStart: Balance;
  afterPolls?: Balance;
  taskId?: string;
  polls: Exchange[];
  /** the status values seen, in order, starting with the 202's */
  states: Array<{ status: string; exchange: Exchange }>;
  terminal?: "completed" | "failed";
  timedOut: boolean;
  zip?: Exchange;
}

// the states after which polling stops (D-deepcrawl-states; not_found: the task is unknown)
const isTerminal = (s: string) => s === "completed" || s === "failed" || s === "not_found";

export async function runDeepcrawl(ctx: RunContext, by: string, body: unknown): Promise<DeepcrawlRun> {
  const before = await balance(ctx, by);
  const start = await ctx.http.call(by, "POST", "/deepcrawl", { body });
  const afterStart = await balance(ctx, by);
  const run: DeepcrawlRun = { body, start, before, afterStart, polls: [], states: [], timedOut: false };
  const accepted = json<{ taskId?: unknown; status?: unknown }>(start);
  if (start.response?.status !== 202 || typeof accepted?.taskId !== "string") return run;
  run.taskId = accepted.taskId;
  if (typeof accepted.status === "string") run.states.push({ status: accepted.status, exchange: start });
  const deadline = Date.now() + ctx.options.timeoutSeconds * 1000;
  let wait = 100;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 1.5, 2000);
    const poll = await ctx.http.call(by, "GET", `/deepcrawl/status/${encodeURIComponent(run.taskId)}`);
    run.polls.push(poll);
    const s = json<{ status?: unknown }>(poll)?.status;
    if (typeof s !== "string") continue;
    run.states.push({ status: s, exchange: poll });
    if (isTerminal(s)) {
      if (s !== "not_found") run.terminal = s as "completed" | "failed";
      break;
    }
  }
  run.timedOut = run.terminal === undefined;
  // a few more polls after the end: repeating is safe and free (interface-spec "States and transitions")
  for (let i = 0; i < 2; i++) {
    run.polls.push(await ctx.http.call(by, "GET", `/deepcrawl/status/${encodeURIComponent(run.taskId)}`));
  }
  run.afterPolls = await balance(ctx, by);
  const last = run.states.at(-1);
  const zipUrl = last ? json<{ zipUrl?: unknown }>(last.exchange)?.zipUrl : undefined;
  if (run.terminal === "completed" && typeof zipUrl === "string") {
    run.zip = await ctx.http.call(by, "GET", zipUrl, { auth: "none" });
  }
  return run;
}

export const deepcrawlProbe: Probe<DeepcrawlRun> = {
  id: "deepcrawl-run",
  usesFixtureSite: true,
  cost: (c, _alt, scope) =>
    scope.has("deepcrawl") ? c.prices.entryCredits("deepcrawl", baseBody(c.operation("deepcrawl"))) : 0,
  // on a target that fetches real pages, the fixture site (its sitemap declares the pages the zip must hold)
  run: async (ctx) =>
    runDeepcrawl(
      ctx,
      "probe:deepcrawl-run",
      await withReachableUrls(ctx, baseBody(ctx.contract.operation("deepcrawl"))),
    ),
};
