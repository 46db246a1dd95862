// The part of an exported script that judges answers, inside Artillery or k6: bundled into the script at export time
// (bundle.ts) from the same modules `plumbline load` runs, so the engines classify, pace and price exactly as it does:
// its limiter (load/rate-limits.ts, which reads the RateLimit headers with spec/rate-limit-headers.ts), its charge
// counting (load/charge-counter.ts) over the spec's price table (spec/price-table.ts). No Node API: k6 runs it too.
import type { Contract } from "@plumbline-kit/contract";
import type { OperationSpec } from "@plumbline-kit/contract/operations";
import { createPriceTable } from "@plumbline-kit/contract/price-table";
import { creditsCharged } from "../../charge-counter.ts";
import { createLimiter, type Limiter, limitHeaders } from "../../rate-limits.ts";
import type { RequestTemplate } from "../../request-plan.ts";

export { pointer } from "../../scenario-setup.ts";

import type { ExportPlan, PlanTemplate } from "../export-plan.ts";

export interface RuntimeTemplate extends RequestTemplate {
  id: string;
  /** the key its figures count under */
  operationId: string;
}

export interface AnswerVerdict {
  /** a 429 within the target's advertised policy: throttling, not an error, no latency sample */
  throttled: boolean;
  /** a status the scenario did not expect (an error) */
  unexpected: boolean;
  /** what the answer cost, priced as plumbline load prices it */
  credits: number;
}

export interface Runtime {
  plan: ExportPlan;
  template(id: string): RuntimeTemplate | undefined;
  /** whether a request sent now is measured (after the warm-up of this load generator) */
  measuring(now?: number): boolean;
  /** room in the target's limits for this request now (true when they are ignored); false: hold it back */
  admit(t: RuntimeTemplate): boolean;
  answer(t: RuntimeTemplate, status: number, headers: Record<string, unknown>, body: string): AnswerVerdict;
  /** a request sent and never answered; returns the most it could have cost */
  unanswered(t: RuntimeTemplate): number;
  /** the templates whose keys are counted: the scenario's requests, the flow's submit and poll */
  counted(): RuntimeTemplate[];
}

function runtimeTemplate(p: PlanTemplate): RuntimeTemplate {
  return {
    id: p.id,
    index: 0,
    operationId: p.operationId,
    method: p.method,
    path: p.path,
    // the limiter only asks whether a request carries a credential
    headers: p.auth ? { authorization: "Bearer" } : {},
    body: undefined,
    value: p.value,
    batch: p.batch,
    invalid: p.invalid,
    expect: new Set(p.expect),
    maxCredits: p.maxCredits,
  };
}

export function createRuntime(plan: ExportPlan, now: () => number = () => Date.now()): Runtime {
  const contract = {
    prices: createPriceTable(plan.pricing as unknown as OperationSpec[]),
  } as unknown as Contract;
  const all = [...plan.setup, ...plan.templates, ...(plan.flow ? [plan.flow.submit, plan.flow.poll] : [])].map(
    runtimeTemplate,
  );
  const byId = new Map(all.map((t) => [t.id, t]));
  const setting = plan.rateLimits.setting;
  const limiter: Limiter | undefined = setting === "ignore" ? undefined : createLimiter(setting, now);
  const measuredFrom = now() + plan.phases.warmupSeconds * 1000;
  return {
    plan,
    template: (id) => byId.get(id),
    measuring: (at = now()) => at >= measuredFrom,
    admit: (t) => (limiter ? limiter.admit(t) : true),
    answer(t, status, headers, body) {
      const throttled = limiter ? limiter.answered(t, status, limitHeaders(headers)).throttled : false;
      return {
        throttled,
        unexpected: !throttled && !t.expect.has(status),
        credits: creditsCharged(t, status, body, contract),
      };
    },
    unanswered(t) {
      limiter?.unanswered(t);
      return t.maxCredits;
    },
    counted: () => all.filter((t) => !t.id.startsWith("s")),
  };
}

/** `{{name}}` in a path or body, filled from captured variables. */
export const fill = (text: string, vars: Record<string, unknown>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

/** A field of a JSON answer, or undefined. */
export function jsonField(body: string, name: string): unknown {
  try {
    return (JSON.parse(body) as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}
