// The proxy's rules: every rule of the contract's registry (spec/checks) that applies to passive traffic, and one of
// its own (the upstream answered at all). Ids are stable: CI jobs, reports and docs/proxy.md name them. `side` says
// whose fault a violation is: the client's request or the answer of whoever served it.
import { RULES as REGISTRY, type Severity } from "@plumbline-kit/contract/checks/index";

export type { Severity };

export interface Rule {
  id: string;
  title: string;
  side: "request" | "response";
  severity: Severity;
  /** the interface section or decision (D-…) the rule enforces */
  basis: string;
}

/** The proxy's own: a forwarded request that got no answer is no exchange the registry can judge. */
const UPSTREAM_ANSWERS: Rule = {
  id: "upstream-answers",
  title: "Every forwarded request gets an HTTP answer within the proxy's upstream timeout",
  side: "response",
  severity: "critical",
  basis: "What the service does 1",
};

export const RULES: readonly Rule[] = [
  ...REGISTRY.filter((r) => r.passive).map(({ id, title, side, severity, basis }) => ({
    id,
    title,
    side,
    severity,
    basis,
  })),
  UPSTREAM_ANSWERS,
];

export type RuleId = string;

export const RULE_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));
