// A hard cap on what a run may spend (runLoad's maxCredits; the gate passes what its budget leaves, by default the
// account's balance): before a paid request is sent, the credits counted so far plus the most every request still
// on its way can cost plus this one's most must fit under the cap, else it is held back (not sent, counted). So a
// run never spends past its budget, whatever the mix draws, and never runs the account dry into 402s.
import type { RequestTemplate } from "./request-plan.ts";

export interface CreditCap {
  admit(t: RequestTemplate): boolean;
  /** the answer came (or never will): its reservation becomes what it cost */
  settled(t: RequestTemplate, credits: number): void;
  readonly cap: number;
}

export function createCreditCap(cap: number): CreditCap {
  let spent = 0;
  let reserved = 0;
  return {
    cap,
    admit(t) {
      if (t.maxCredits === 0) return true;
      if (spent + reserved + t.maxCredits > cap) return false;
      reserved += t.maxCredits;
      return true;
    },
    settled(t, credits) {
      if (t.maxCredits === 0) return;
      reserved -= t.maxCredits;
      spent += credits;
    },
  };
}
