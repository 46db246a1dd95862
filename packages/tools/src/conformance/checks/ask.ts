// POST /ask of the live contract (D-ask-intent, D-ask-relevance, D-ask-charging), as an outside client observes it.
// One planned call (5 credits) between two balance readings: a request with platform and time phrases ("… papers on
// github this week"), with `Prefer: fail-engines="arxiv"` when the target is the mock (mock-steering.ts), so one of
// its engines fails and the call must still answer 200, list it in `errors` and be charged 5. On the mock a second
// call fails every engine it searches: a 502, charged nothing. On any other target an engine fails only on its own
// terms: the partial-failure rules are then judged on whatever the run's answers show, and the check says so.
// Every /ask answer of the run (bound cases, priced calls, MCP) is judged by the registry's ask rules.
import type { Contract } from "@plumbline-kit/contract";
import { answerFailures } from "../answer-judge.ts";
import { describe, failure, json, type Measured, measureCharge, status, unreadableBalance } from "../check-helpers.ts";
import { type MockSteering, mockSteeringProbe } from "../probes/mock-steering.ts";
import type { CheckDefinition, Exchange, Failure, Probe, RunContext } from "../types.ts";

/** Platform phrases naming arxiv and github, and a time phrase naming the week (D-ask-intent). */
export const PHRASED_QUERY = "vector search papers on github this week";
const PHRASES = { sources: ["arxiv", "github"], time_range: "week", removed: ["papers", "github", "this week"] };
/** The engine the mock is asked to fail in the phrased call. */
const FAILING = "arxiv";
/** A request naming no platform: searched on the default web engine alone, which the mock is asked to fail. */
const PLAIN_QUERY = "vector search";
const WEB_ENGINE = "google";

type AskAnswer = {
  intent?: { search_query?: unknown; sources?: unknown; time_range?: unknown };
  results?: Array<{ source?: unknown }>;
  errors?: Array<{ source?: unknown }>;
};

export interface AskCalls {
  steering: MockSteering;
  /** the phrased call, measured; with steering, one engine asked to fail */
  phrased: Measured<Exchange>;
  /** with steering: every engine asked to fail, measured */
  allFailed: Measured<Exchange> | null;
}

const price = (c: Contract) => c.prices.get("ask")?.credits ?? 0;

export const askCallsProbe: Probe<AskCalls> = {
  id: "ask-calls",
  uses: [mockSteeringProbe],
  // the all-failed call costs nothing when the target is right; planned at its price all the same
  cost: (c, _alt, scope) => (scope.has("ask") && c.findOperation("ask") ? 2 * price(c) : 0),
  async run(ctx) {
    const steering = await ctx.probe(mockSteeringProbe);
    const by = "probe:ask-calls";
    const ask = (query: string, failing: string | null) =>
      ctx.http.call(by, "POST", "/ask", {
        body: { query },
        ...(failing ? { headers: { prefer: `fail-engines="${failing}"` } } : {}),
      });
    const phrased = await measureCharge(ctx, by, () => ask(PHRASED_QUERY, steering.failEngines ? FAILING : null));
    const allFailed = steering.failEngines ? await measureCharge(ctx, by, () => ask(PLAIN_QUERY, WEB_ENGINE)) : null;
    return { steering, phrased, allFailed };
  },
};

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);
const sourcesOf = (list: unknown): string[] =>
  (Array.isArray(list) ? list : [])
    .map((e) => (e as { source?: unknown })?.source)
    .filter((s) => typeof s === "string");
const shown = (m: Measured<Exchange>) => [m.before.exchange, m.result, m.after.exchange];

/** Only under a contract that has /ask (the live version): the seed's runs do not list these checks. */
const ASK = ["ask"];

const intentPhrases: CheckDefinition = {
  id: "ask-intent-phrases",
  title:
    'An /ask request naming platforms and a window ("papers on github this week") is searched on those engines, in that window, with the phrases taken out of the keywords',
  severity: "major",
  section: "POST /ask (live)",
  basis: { kind: "decision", decision: "D-ask-intent" },
  operations: ASK,
  requires: ASK,
  probes: [askCallsProbe],
  async run(ctx) {
    const { phrased } = await ctx.probe(askCallsProbe);
    const ex = phrased.result;
    if (status(ex) !== 200)
      return { failures: [failure("the phrased /ask call did not answer 200", [ex], "200", describe(ex))] };
    const intent = json<AskAnswer>(ex)?.intent ?? {};
    const failures: Failure[] = [];
    const sources = strings(intent.sources);
    for (const s of PHRASES.sources)
      if (!sources.includes(s))
        failures.push(
          failure(`"${PHRASED_QUERY}": intent.sources leaves out ${s}`, [ex], `includes ${s}`, sources.join(", ")),
        );
    if (intent.time_range !== PHRASES.time_range)
      failures.push(
        failure(
          `"${PHRASED_QUERY}": intent.time_range is not the week`,
          [ex],
          PHRASES.time_range,
          JSON.stringify(intent.time_range),
        ),
      );
    const keywords = typeof intent.search_query === "string" ? intent.search_query.toLowerCase() : "";
    for (const phrase of PHRASES.removed)
      if (keywords.includes(phrase))
        failures.push(
          failure(
            `"${PHRASED_QUERY}": intent.search_query keeps the phrase "${phrase}"`,
            [ex],
            "the platform and time phrases taken out",
            String(intent.search_query),
          ),
        );
    return { failures, notes: [`read as ${JSON.stringify(intent)}`] };
  },
};

const charged: CheckDefinition = {
  id: "ask-charged",
  title:
    "An /ask call answered 200 costs exactly its price (5 credits), also when some engines failed and are listed in errors; a 502 (every engine failed) costs nothing",
  severity: "critical",
  section: "POST /ask (live)",
  basis: { kind: "decision", decision: "D-ask-charging" },
  operations: ASK,
  requires: ASK,
  probes: [askCallsProbe],
  async run(ctx) {
    const { phrased, allFailed } = await ctx.probe(askCallsProbe);
    const failures: Failure[] = [];
    const notes: string[] = [];
    for (const m of [phrased, ...(allFailed ? [allFailed] : [])]) {
      const code = status(m.result);
      if (code !== 200 && code !== 502) {
        failures.push(
          failure("the /ask call answered neither 200 nor 502", [m.result], "200 or 502", describe(m.result)),
        );
        continue;
      }
      if (m.charged === null) {
        failures.push(unreadableBalance(m));
        continue;
      }
      const expected = code === 200 ? price(ctx.contract) : 0;
      const failed = sourcesOf(json<AskAnswer>(m.result)?.errors);
      const what =
        code === 200 ? `a 200 with ${failed.length ? `${failed.join(", ")} in errors` : "no engine failed"}` : "a 502";
      if (m.charged !== expected)
        failures.push(failure(`${what} charged ${m.charged} credits`, shown(m), `${expected}`, `${m.charged}`));
      else notes.push(`${what}: charged ${m.charged}`);
    }
    return { failures, notes };
  },
};

const engineFailures: CheckDefinition = {
  id: "ask-engine-failures",
  title:
    "An engine of /ask that fails while others answer is listed in errors (none of its results returned); when every engine fails the call is a 502",
  severity: "major",
  section: "POST /ask (live)",
  basis: { kind: "decision", decision: "D-ask-charging" },
  operations: ASK,
  requires: ASK,
  probes: [askCallsProbe],
  async run(ctx) {
    const { steering, phrased, allFailed } = await ctx.probe(askCallsProbe);
    if (!steering.failEngines || !allFailed)
      return {
        failures: [],
        skip: "the target offers no way to make an engine fail (the mock's Prefer: fail-engines): what /ask answers when one does is judged on the run's own answers only (ask-relevance-order: errors name only engines searched, never all of them with a 200)",
      };
    const failures: Failure[] = [];
    const ex = phrased.result;
    if (status(ex) !== 200)
      failures.push(
        failure(`with ${FAILING} failing, the other engines' answer was not a 200`, [ex], "200", describe(ex)),
      );
    else {
      const answer = json<AskAnswer>(ex) ?? {};
      if (strings(answer.intent?.sources).includes(FAILING) && !sourcesOf(answer.errors).includes(FAILING))
        failures.push(
          failure(
            `${FAILING} was made to fail, yet errors does not list it`,
            [ex],
            `errors naming ${FAILING}`,
            JSON.stringify(answer.errors ?? null),
          ),
        );
      if (sourcesOf(answer.results).includes(FAILING))
        failures.push(failure(`${FAILING} failed, yet results come from it`, [ex], "none", FAILING));
    }
    if (status(allFailed.result) !== 502)
      failures.push(
        failure(
          `every engine (${WEB_ENGINE}) made to fail, and the call was not a 502`,
          [allFailed.result],
          "502",
          describe(allFailed.result),
        ),
      );
    return { failures };
  },
};

const isAsk = (ex: Exchange) => ex.operationId === "ask" && status(ex) === 200;

const relevanceOrder: CheckDefinition = {
  id: "ask-relevance-order",
  title:
    "Every /ask answer of the run holds results of relevance 0.5..1 with two decimals, best first, each page once, from the engines its intent names; errors name only engines searched",
  severity: "major",
  section: "POST /ask (live)",
  basis: { kind: "decision", decision: "D-ask-relevance" },
  operations: ASK,
  requires: ASK,
  phase: "traffic",
  async run(ctx: RunContext) {
    const seen = ctx.http.exchanges.filter(isAsk);
    if (seen.length === 0) return { failures: [], skip: "no /ask answer 200 was observed in the run" };
    const failures = answerFailures(ctx, ["ask-results-ranked", "ask-intent-shape"], isAsk, () => "");
    return { failures, notes: [`${seen.length} /ask answers judged`] };
  },
};

export const ASK_CHECKS = [intentPhrases, charged, engineFailures, relevanceOrder];
