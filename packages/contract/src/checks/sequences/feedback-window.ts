// The rate window of POST /feedback (the live contract, D-feedback: 10 reports a minute per account), judged
// passively: once an answer of /feedback says the operation's window is used up (`RateLimit: "feedback";r=0;t=T`),
// a report the same credential gets accepted (2xx) before that window ends is the eleventh of the window. The end is
// taken as T - 1 seconds after the answer (T is rounded up to whole seconds), so a report accepted just after a
// window rolled over is never called one; a target that advertises no window for /feedback is not judged here (the
// conformance suite's feedback-rate-limit counts the reports itself).
import { parseRateLimit } from "../../rate-limit-headers.ts";
import type { SequenceRule, Violation } from "../types.ts";

/** Credentials remembered at most (the oldest dropped first): one number each. */
export const MAX_FEEDBACK_CREDENTIALS = 4096;

export const feedbackWindow: SequenceRule = {
  kind: "sequence",
  id: "feedback-rate-window",
  title:
    "Once a /feedback answer says the operation's window is used up (r=0), the same credential's next report is not accepted before that window ends",
  side: "response",
  severity: "major",
  basis: "D-feedback; D-rate-limits",
  passive: true,
  needs: [],
  create() {
    /** credential → epoch ms before which its reports must be refused */
    const closed = new Map<string, number>();
    return {
      observe(ctx): Violation[] {
        const credential = ctx.exchange.request.credential;
        const at = ctx.exchange.at;
        if (ctx.op?.operationId !== "feedback" || ctx.status === null || !credential || at === undefined) return [];
        const out: Violation[] = [];
        const until = closed.get(credential);
        if (ctx.status >= 200 && ctx.status < 300 && until !== undefined && at < until)
          out.push({
            rule: feedbackWindow.id,
            message: `a report was accepted ${Math.ceil((until - at) / 1000)} s before the window an earlier answer said was used up ends: the eleventh report of the window`,
            expected: "429",
            actual: `${ctx.status}`,
          });
        const state = parseRateLimit(ctx.headers.ratelimit);
        if (state?.policy === "feedback") {
          closed.delete(credential);
          if (state.remaining === 0 && state.resetSeconds > 1) {
            if (closed.size >= MAX_FEEDBACK_CREDENTIALS) closed.delete(closed.keys().next().value as string);
            closed.set(credential, at + (state.resetSeconds - 1) * 1000);
          }
        }
        return out;
      },
    };
  },
};
