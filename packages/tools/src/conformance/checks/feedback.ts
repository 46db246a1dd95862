// POST /feedback of the live contract (D-feedback), as an outside client observes it. Free: a report is sent
// between two balance readings of the main account, which must not move. "201 only once stored" is observable only
// where the target lets a client see or steer its store: on the mock, the report's id must be among the reports it
// lists (`GET /__mock/feedback`), and a report sent while its store is made to fail (`PUT /__mock/feedback/failures`)
// must not be answered 201 (D-feedback: 503, nothing kept); on any other target the check says it judged the answer
// only (the proxy, in front of a deployment, judges every answer's shape and echo passively). The limits: a body
// over 16 KiB is 413, one that is not JSON 415, and an account's eleventh report within the rate window 429 with
// Retry-After. The refusals and the eleventh report are sent with the broke account (free, and an account of its
// own: the main account's window of 10 reports a minute is left to the bound cases).
import { FEEDBACK_BODY_LIMIT_BYTES } from "@plumbline-kit/contract/error-catalogue";
import { answerFailures } from "../answer-judge.ts";
import { describe, failure, json, measureCharge, status, unreadableBalance } from "../check-helpers.ts";
import type { Auth } from "../http-client.ts";
import { mockSteeringProbe } from "../probes/mock-steering.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";
import { throttleProblems } from "./rate-limit.ts";

const FEEDBACK = ["feedback"];
const report = (what: string) => ({
  message: `plumbline conformance: ${what}; this report can be discarded.`,
  category: "other",
});
/** The account for the calls that must not use up the main account's window of reports. */
const spare = (ctx: RunContext): Auth => (ctx.options.brokeApiKey ? "broke" : "main");
/** A report; `noRetry`: a 429 is handed back instead of waited out (the burst wants to see it). */
const send = (ctx: RunContext, by: string, body: unknown, auth: Auth = "main", noRetry = false) =>
  ctx.http.call(by, "POST", "/feedback", { body, auth, noRetry });

const stored: CheckDefinition = {
  id: "feedback-stored",
  title:
    'A report is answered 201 {id: "fb_…", status: "new"} only once stored (listed by the mock; never 201 while its store fails), and costs nothing',
  severity: "critical",
  section: "POST /feedback (live)",
  basis: { kind: "decision", decision: "D-feedback" },
  operations: FEEDBACK,
  requires: FEEDBACK,
  probes: [mockSteeringProbe],
  async run(ctx) {
    const by = this.id;
    const steering = await ctx.probe(mockSteeringProbe);
    const failures: Failure[] = [];
    const notes: string[] = [];
    const m = await measureCharge(ctx, by, () => send(ctx, by, report("a stored report")));
    const ex = m.result;
    const id = json<{ id?: unknown }>(ex)?.id;
    if (status(ex) !== 201) failures.push(failure("a valid report was not answered 201", [ex], "201", describe(ex)));
    else if (typeof id !== "string" || !id.startsWith("fb_") || json<{ status?: unknown }>(ex)?.status !== "new")
      failures.push(
        failure("the 201 is not {id: fb_…, status: new}", [ex], '{id: "fb_…", status: "new"}', ex.response?.text),
      );
    if (m.charged === null) failures.push(unreadableBalance(m));
    else if (m.charged !== 0)
      failures.push(
        failure(
          `a report charged ${m.charged} credits`,
          [m.before.exchange, ex, m.after.exchange],
          "0",
          `${m.charged}`,
        ),
      );
    if (steering.feedbackList && typeof id === "string") {
      const list = await ctx.http.call(by, "GET", "/__mock/feedback", { auth: "none" });
      const ids = (json<{ reports?: Array<{ id?: unknown }> }>(list)?.reports ?? []).map((r) => r.id);
      if (!ids.includes(id))
        failures.push(
          failure(
            `the report ${id} answered 201 is not among the reports kept`,
            [ex, list],
            id,
            `${ids.length} reports listed`,
          ),
        );
      else notes.push(`${id} is among the reports the mock lists`);
    }
    if (steering.feedbackFailures) {
      const steer = (times: number) =>
        ctx.http.call(by, "PUT", "/__mock/feedback/failures", { body: { times }, auth: "none" });
      await steer(1);
      const failed = await send(ctx, by, report("a report whose store fails"), spare(ctx));
      // nothing left armed, whatever the answer was (a refusal before the store would leave it)
      await steer(0);
      const code = status(failed);
      if (code === 201)
        failures.push(
          failure(
            "the store failed, yet the report was answered 201",
            [failed],
            "503 (nothing kept)",
            describe(failed),
          ),
        );
      else if (code !== 503)
        failures.push(
          failure("a report the store failed to keep was not answered 503", [failed], "503", describe(failed)),
        );
      else notes.push("a report the store failed to keep: 503");
    } else
      notes.push(
        "the target offers no way to make its store fail (the mock's PUT /__mock/feedback/failures): 201 judged on its shape and cost only",
      );
    return { failures, notes };
  },
};

const limits: CheckDefinition = {
  id: "feedback-limits",
  title: "A report over 16 KiB is refused 413 before it is read, one that is not JSON 415",
  severity: "major",
  section: "POST /feedback (live)",
  basis: { kind: "decision", decision: "D-feedback" },
  operations: FEEDBACK,
  requires: FEEDBACK,
  async run(ctx) {
    const by = this.id;
    const auth = spare(ctx);
    const failures: Failure[] = [];
    // valid JSON, so only its size can refuse it
    const big = JSON.stringify({ message: "x", intent: "y".repeat(FEEDBACK_BODY_LIMIT_BYTES) });
    const tooLarge = await ctx.http.call(by, "POST", "/feedback", { raw: big, auth });
    if (status(tooLarge) !== 413)
      failures.push(failure(`a ${big.length}-byte report was not refused 413`, [tooLarge], "413", describe(tooLarge)));
    const text = await ctx.http.call(by, "POST", "/feedback", {
      raw: "message=the crawl missed two sitemaps",
      contentType: "text/plain",
      auth,
    });
    if (status(text) !== 415)
      failures.push(failure("a text/plain report was not refused 415", [text], "415", describe(text)));
    return { failures };
  },
};

const rateLimit: CheckDefinition = {
  id: "feedback-rate-limit",
  title:
    "An account's reports past the operation's window (10 a minute) are refused 429 with Retry-After and the RateLimit headers: the eleventh within the window is never accepted",
  severity: "major",
  section: "POST /feedback (live)",
  basis: { kind: "decision", decision: "D-feedback" },
  operations: FEEDBACK,
  requires: FEEDBACK,
  preconditions: ["broke-key"],
  phase: "last",
  async run(ctx) {
    const by = this.id;
    const limit = ctx.contract.rateLimits.perOperation.feedback;
    if (!limit) return { failures: [], skip: "the contract sets no window of its own for /feedback" };
    // fixed windows: a window may end between two reports, so twice the limit in a row always crosses one
    const most = 2 * limit + 1;
    const sent: Exchange[] = [];
    let limited: Exchange | undefined;
    while (!limited && sent.length < most) {
      const ex = await send(ctx, by, report(`report ${sent.length + 1} of a burst`), "broke", true);
      sent.push(ex);
      if (status(ex) === 429) limited = ex;
      else if (status(ex) !== 201)
        return {
          failures: [failure("a report of the burst was neither 201 nor 429", [ex], "201 or 429", describe(ex))],
        };
    }
    // as the account's own check does (rate-limit.ts): a target that advertises no window and is stated none has no
    // limit to judge (the mock started with --rate-limit 0)
    if (!limited && ctx.options.rateLimit === "auto" && sent.every((ex) => remainingOf(ex) === null))
      return {
        failures: [],
        skip: `no 429 within ${sent.length} reports and no RateLimit header: the target does not limit this account (state the limit with --rate-limit to judge it)`,
      };
    // the accepted reports since the window last began: a RateLimit remainder that grows tells a new window began
    let inWindow = 0;
    let previous = Number.POSITIVE_INFINITY;
    for (const ex of sent) {
      if (status(ex) !== 201) continue;
      const remaining = remainingOf(ex);
      if (remaining !== null && remaining > previous) inWindow = 0;
      if (remaining !== null) previous = remaining;
      inWindow += 1;
    }
    const failures: Failure[] = [];
    if (!limited || inWindow > limit)
      failures.push(
        failure(
          `${inWindow} reports accepted in a row by one account${limited ? "" : ` (${sent.length} sent, none refused)`}`,
          sent.slice(limit),
          `429 by report ${limit + 1} of a window`,
          limited ? describe(limited) : "no 429",
        ),
      );
    if (limited) failures.push(...throttleProblems(ctx, limited));
    return { failures, notes: [`429 after ${sent.length - 1} accepted reports`] };
  },
};

/** The `r` of a RateLimit header (`"feedback";r=9;t=60`), or null. */
function remainingOf(ex: Exchange): number | null {
  const m = /;\s*r=(\d+)/.exec(ex.response?.headers.ratelimit ?? "");
  return m ? Number(m[1]) : null;
}

const noEcho: CheckDefinition = {
  id: "feedback-no-echo",
  title: "No /feedback answer of the run echoes the report or the credential it was sent with",
  severity: "major",
  section: "POST /feedback (live)",
  basis: { kind: "decision", decision: "D-feedback" },
  operations: FEEDBACK,
  requires: FEEDBACK,
  phase: "traffic",
  async run(ctx) {
    const isFeedback = (ex: Exchange) => ex.operationId === "feedback";
    const answers = ctx.http.exchanges.filter((ex) => isFeedback(ex) && ex.response);
    if (answers.length === 0) return { failures: [], skip: "no /feedback answer was observed in the run" };
    const failures = answerFailures(ctx, ["feedback-no-echo"], isFeedback);
    // the recorded requests name the credentials, never hold them: the keys themselves are looked for here
    const keys = [ctx.options.apiKey, ctx.options.brokeApiKey].filter((k): k is string => !!k && k.length >= 8);
    for (const ex of answers) {
      const text = `${ex.raw?.toString("utf8") ?? ""}\n${Object.values(ex.response?.headers ?? {}).join("\n")}`;
      if (keys.some((k) => text.includes(k)))
        failures.push(
          failure("a /feedback answer holds the credential it was sent with", [ex], "no credential", describe(ex)),
        );
    }
    return { failures, notes: [`${answers.length} /feedback answers judged`] };
  },
};

export const FEEDBACK_CHECKS = [stored, limits, rateLimit, noEcho];
