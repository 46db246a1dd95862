// The lasting report: every exchange judged as it finishes, violations grouped by operation and rule, each group
// keeping its first examples whole (the redacted exchange and a curl line) and counting the rest, so a proxy left
// running for days holds a bounded report.
import { readFileSync } from "node:fs";
import type { Contract } from "@plumbline-kit/contract";
import { curlCommand } from "@plumbline-kit/contract/report/curl";
import type { Exchange, ExchangeSink } from "../exchange.ts";
import { headerValue } from "../hop-headers.ts";
import { createExchangeJudge, type Violation } from "../judge/exchange-judge.ts";
import { RULE_BY_ID, RULES, type Rule } from "../judge/rules.ts";
import type { OperationMatcher } from "../operation-match.ts";
import { type BodyView, type RedactedView, redactedView, type ViewOptions } from "../redacted-view.ts";
import { REDACTED } from "../redaction.ts";

const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };

export const MAX_EXAMPLES = 20;
export const NO_OPERATION = "(no operation)";

export interface ReportedViolation extends Violation {
  at: string;
  servedBy: Exchange["servedBy"];
  exchange: RedactedView;
  curl: string;
}

export interface RuleGroup {
  rule: string;
  title: string;
  side: Rule["side"];
  severity: Rule["severity"];
  basis: string;
  count: number;
  /** the first MAX_EXAMPLES violations, whole */
  examples: ReportedViolation[];
}

export interface OperationGroup {
  operationId: string;
  exchanges: number;
  violations: number;
  rules: RuleGroup[];
}

export interface ProxyReport {
  tool: "plumbline proxy";
  version: string;
  upstream: string;
  startedAt: string;
  updatedAt: string;
  settings: Record<string, unknown>;
  totals: {
    exchanges: number;
    /** exchanges matching a contract operation, judged */
    judged: number;
    violations: number;
    /** exchanges refused by the proxy (`--errors`) */
    refused: number;
    servedBy: Record<Exchange["servedBy"], number>;
    /** hybrid fallbacks to the mock */
    fallbacks: number;
    /** balance-charged: windows (two balance reads of one credential) judged, and those skipped as ambiguous by reason */
    balanceWindows: number;
    balanceSkipped: Record<string, number>;
  };
  /** every rule, with how many violations of it were seen */
  rules: Array<Rule & { count: number }>;
  operations: OperationGroup[];
}

export interface ReportOptions extends ViewOptions {
  contract: Contract;
  matcher: OperationMatcher;
  settings: Record<string, unknown>;
  onViolation?: (v: ReportedViolation) => void;
  /** every exchange once judged, with its violations (none: it kept the contract); the CLI's request log */
  onJudged?: (ex: Exchange, violations: Violation[]) => void;
}

/** Bodies shown in the report are cut at this many characters (the recording keeps them whole). */
export const MAX_SHOWN_BODY = 64 * 1024;

function clip(body: BodyView | null | undefined) {
  if (!body || body.text.length <= MAX_SHOWN_BODY) return;
  body.note = `${body.note ? `${body.note}; ` : ""}cut to its first ${MAX_SHOWN_BODY} characters of ${body.text.length} in the report`;
  body.text = body.text.slice(0, MAX_SHOWN_BODY);
}

/** A view with long bodies cut, so 20 examples of a rule cost kilobytes, not the zips they may carry. */
function clipped(view: RedactedView): RedactedView {
  clip(view.requestBody);
  clip(view.response?.body);
  return view;
}

/**
 * The curl line of a recorded request, from its redacted view: a redacted credential keeps only its scheme (read
 * from the request, never its value), which the renderer turns into `$PLUMBLINE_API_KEY` for a bearer key.
 */
export function curlLine(view: RedactedView, ex: Exchange): string {
  const scheme = (headerValue(ex.request.headers, "authorization") ?? "").split(" ")[0];
  const headers = view.requestHeaders.map(([name, value]): [string, string] =>
    name.toLowerCase() === "authorization" && value === REDACTED && scheme
      ? [name, `${scheme} ${REDACTED}`]
      : [name, value],
  );
  const body = view.requestBody;
  return curlCommand({
    method: view.method,
    url: view.url,
    headers,
    body: !body ? undefined : body.encoding === "base64" ? { binary: true, note: "base64 in the report" } : body.text,
  });
}

export interface ViolationReport extends ExchangeSink {
  snapshot(): ProxyReport;
  readonly violations: number;
}

export function createViolationReport(o: ReportOptions): ViolationReport {
  const judge = createExchangeJudge(o.contract, o.matcher);
  const startedAt = new Date().toISOString();
  const operations = new Map<string, { exchanges: number; violations: number; rules: Map<string, RuleGroup> }>();
  const ruleCounts = new Map<string, number>();
  const totals: ProxyReport["totals"] = {
    exchanges: 0,
    judged: 0,
    violations: 0,
    refused: 0,
    servedBy: { upstream: 0, mock: 0, proxy: 0 },
    fallbacks: 0,
    balanceWindows: 0,
    balanceSkipped: {},
  };

  function groupOf(operationId: string) {
    let g = operations.get(operationId);
    if (!g) {
      g = { exchanges: 0, violations: 0, rules: new Map() };
      operations.set(operationId, g);
    }
    return g;
  }

  return {
    get violations() {
      return totals.violations;
    },
    add(ex) {
      totals.exchanges++;
      totals.servedBy[ex.servedBy]++;
      if (ex.fallbackFrom) totals.fallbacks++;
      if (ex.servedBy === "proxy" && ex.response && ex.response.status < 500) totals.refused++;
      if (ex.operationId) totals.judged++;
      const found = judge.judge(ex);
      o.onJudged?.(ex, found);
      const op = groupOf(ex.operationId ?? NO_OPERATION);
      op.exchanges++;
      if (found.length === 0) return;
      let view: RedactedView | undefined;
      let curl = "";
      for (const v of found) {
        const rule = RULE_BY_ID.get(v.rule) as Rule;
        totals.violations++;
        op.violations++;
        ruleCounts.set(v.rule, (ruleCounts.get(v.rule) ?? 0) + 1);
        let group = op.rules.get(v.rule);
        if (!group) {
          group = {
            rule: rule.id,
            title: rule.title,
            side: rule.side,
            severity: rule.severity,
            basis: rule.basis,
            count: 0,
            examples: [],
          };
          op.rules.set(v.rule, group);
        }
        group.count++;
        if (group.examples.length >= MAX_EXAMPLES && !o.onViolation) continue;
        if (!view) {
          view = clipped(redactedView(ex, o));
          curl = curlLine(view, ex);
        }
        const reported: ReportedViolation = {
          ...v,
          at: new Date(ex.startedAt).toISOString(),
          servedBy: ex.servedBy,
          exchange: view,
          curl,
        };
        if (group.examples.length < MAX_EXAMPLES) group.examples.push(reported);
        o.onViolation?.(reported);
      }
    },
    snapshot() {
      return {
        tool: "plumbline proxy",
        version: pkg.version,
        upstream: o.upstream,
        startedAt,
        updatedAt: new Date().toISOString(),
        settings: o.settings,
        totals: { ...structuredClone(totals), ...judge.sequences() },
        rules: RULES.map((r) => ({ ...r, count: ruleCounts.get(r.id) ?? 0 })),
        operations: [...operations.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([operationId, g]) => ({
            operationId,
            exchanges: g.exchanges,
            violations: g.violations,
            rules: [...g.rules.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)),
          })),
      };
    },
  };
}
