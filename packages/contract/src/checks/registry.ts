// The registry: every contract rule once, and the entries every judge calls. A judge picks the rules it can run
// (`passive` for traffic it did not plan, `side: "response"` when it sends invalid requests on purpose) and gets
// violations as values. How to add a rule: CONTRIBUTING.md, "The registry of contract checks".
import type { Contract } from "../contract.ts";
import { askIntentShape, askResultsRanked } from "./ask-rules.ts";
import { batchEntries, batchEntryCost, batchSummary, crawlBatch } from "./batch-rules.ts";
import {
  crawlScriptFree,
  deepcrawlZip,
  extractFormat,
  screenshotImage,
  screenshotSize,
  sitemapHost,
} from "./content-rules.ts";
import { createContext } from "./context.ts";
import { statesForward, successUnfinished, taskEcho, terminalStays } from "./deepcrawl-rules.ts";
import { echoDefaults, maxResults, parametersEcho, trendingDescriptionNull } from "./echo-rules.ts";
import {
  errorLabel,
  errorMembers,
  invalidAccepted,
  linkHeader,
  messageNamesField,
  validationStatus,
} from "./error-rules.ts";
import { feedbackNoEcho } from "./feedback-rules.ts";
import { paymentChallenge, paymentProblem } from "./payment-rules.ts";
import { rateLimitCode, rateLimitHeaders, retryAfter } from "./rate-limit-rules.ts";
import { requestJson, requestParameters, requestSchema } from "./request-rules.ts";
import {
  authChallenge,
  contentTypeDeclared,
  requestIdEcho,
  responseHeaders,
  responseSchema,
  statusListed,
} from "./response-rules.ts";
import { balanceCharged } from "./sequences/balance.ts";
import { completedPackage, zipLayout, zipStays } from "./sequences/deepcrawl-zip.ts";
import { feedbackWindow } from "./sequences/feedback-window.ts";
import type {
  Exchange,
  ExchangeContext,
  ExchangeRule,
  JudgeOptions,
  Rule,
  SequenceJudge,
  SequenceRule,
  Violation,
} from "./types.ts";

export const RULES: readonly Rule[] = [
  requestJson,
  requestSchema,
  requestParameters,
  statusListed,
  contentTypeDeclared,
  responseSchema,
  responseHeaders,
  errorMembers,
  errorLabel,
  invalidAccepted,
  validationStatus,
  messageNamesField,
  authChallenge,
  paymentProblem,
  paymentChallenge,
  retryAfter,
  rateLimitCode,
  rateLimitHeaders,
  batchEntries,
  batchSummary,
  batchEntryCost,
  crawlBatch,
  parametersEcho,
  maxResults,
  echoDefaults,
  trendingDescriptionNull,
  screenshotImage,
  screenshotSize,
  crawlScriptFree,
  extractFormat,
  sitemapHost,
  taskEcho,
  successUnfinished,
  terminalStays,
  statesForward,
  deepcrawlZip,
  requestIdEcho,
  linkHeader,
  balanceCharged,
  completedPackage,
  zipStays,
  zipLayout,
  askResultsRanked,
  askIntentShape,
  feedbackNoEcho,
  feedbackWindow,
];

export const RULE_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

/** The rule of an id; throws on an unknown one (a typo in a judge is a bug, never a silently skipped rule). */
export function rule(id: string): Rule {
  const r = RULE_BY_ID.get(id);
  if (!r) throw new Error(`no contract rule "${id}" in the registry`);
  return r;
}

/** The rules a judge applies: the ones named (default all), narrowed to passive ones and to a side when asked. */
export function selectRules(options: Pick<JudgeOptions, "rules" | "passive" | "side"> = {}): Rule[] {
  const named = options.rules ? options.rules.map((r) => (typeof r === "string" ? rule(r) : r)) : RULES;
  return named.filter((r) => (!options.passive || r.passive) && (!options.side || r.side === options.side));
}

/** An answer whose status the operation does not list is judged for that only (its body has no schema to meet). */
function unlisted(ctx: ExchangeContext): boolean {
  return ctx.op !== null && ctx.status !== null && !ctx.op.statuses.includes(ctx.status);
}

function applies(r: Rule, ctx: ExchangeContext): boolean {
  if (r.side === "request") return true;
  if (ctx.status === null) return false;
  return !unlisted(ctx) || r.id === statusListed.id;
}

function run(rules: ExchangeRule[], ctx: ExchangeContext): Violation[] {
  const out: Violation[] = [];
  for (const r of rules) if (applies(r, ctx)) out.push(...r.check(ctx));
  return out;
}

/**
 * Judges one exchange with the exchange rules selected (default: every one), feeding `options.sequences` too.
 * Pure but for those trackers: the same exchange gets the same violations.
 */
export function judgeExchange(contract: Contract, exchange: Exchange, options: JudgeOptions = {}): Violation[] {
  const ctx = createContext(contract, exchange);
  const rules = selectRules(options).filter((r): r is ExchangeRule => r.kind === "exchange");
  const out = run(rules, ctx);
  for (const s of options.sequences ?? []) if (ctx.status !== null && !unlisted(ctx)) out.push(...s.observe(ctx));
  return out;
}

/** Fresh trackers of the sequence rules selected (one set per proxy, per run). */
export function createSequenceJudges(
  contract: Contract,
  options: Omit<JudgeOptions, "sequences"> = {},
): SequenceJudge[] {
  return selectRules(options)
    .filter((r): r is SequenceRule => r.kind === "sequence")
    .map((r) => r.create(contract));
}

export interface Judge {
  /** every selected rule on this exchange, sequences included (exchanges fed in the order they completed) */
  judge(exchange: Exchange): Violation[];
}

/** A judge holding its own sequence trackers: what the proxy keeps for its lifetime and a run for its traffic. */
export function createJudge(contract: Contract, options: Omit<JudgeOptions, "sequences"> = {}): Judge {
  const sequences = createSequenceJudges(contract, options);
  return { judge: (exchange) => judgeExchange(contract, exchange, { ...options, sequences }) };
}
