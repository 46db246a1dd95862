// Why a check was skipped, as a kind a CI job can count and name (issue 27, "skips cannot hide"). Some kinds are a
// missing precondition the person running the suite can provide (a fixture site the target reaches, a broke key, a
// payment key, an OAuth account): a run with such skips fails unless `--allow-skipped` names their kinds. The
// others are the run's own choice (operations not selected), the target's nature (a synthetic target, which cannot
// fetch real pages) or nothing to judge (no 402 was observed): reported, counted, never fatal.
import type { CheckResult } from "./types.ts";

export const SKIP_KINDS = {
  "fixture-unreachable": {
    precondition: true,
    label: "the target cannot reach the fixture site",
  },
  "fixture-manifest": {
    precondition: true,
    label: "the fixture manifest does not match the fixture site",
  },
  "fixture-incomplete": {
    precondition: true,
    label: "the fixture site lacks an origin or request log a check needs",
  },
  "broke-key": { precondition: true, label: "no account with zero credits (--broke-api-key)" },
  "payment-key": { precondition: true, label: "no test payment key (--payment-method test --payment-key)" },
  "oauth-account": { precondition: true, label: "no account to consent with (--oauth-user, --oauth-password)" },
  "image-decoder": {
    precondition: true,
    label: "no image decoder for the screenshots' pixels (npm install --save-dev sharp)",
  },
  synthetic: { precondition: false, label: "a synthetic target: it does not fetch real pages" },
  "no-canary": { precondition: false, label: "neither crawl nor sitemap is selected, so the canary cannot run" },
  "not-selected": { precondition: false, label: "operation not selected (--operations)" },
  "not-applicable": { precondition: false, label: "nothing to judge in this run" },
} as const;

export type SkipKind = keyof typeof SKIP_KINDS;

/** The kinds `--allow-skipped` can name: the missing preconditions. */
export const PRECONDITION_KINDS = (Object.keys(SKIP_KINDS) as SkipKind[]).filter((k) => SKIP_KINDS[k].precondition);

export function isSkipKind(v: string): v is SkipKind {
  return Object.hasOwn(SKIP_KINDS, v);
}

/** `--allow-skipped fixture-unreachable,payment-key`: the kinds, or an error naming the unknown ones. */
export function parseAllowSkipped(
  v: string[] | string | undefined,
): { ok: true; kinds: SkipKind[] } | { ok: false; error: string } {
  const items = (Array.isArray(v) ? v : (v ?? "").split(",")).map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((s) => !isSkipKind(s) || !SKIP_KINDS[s].precondition);
  if (bad.length)
    return {
      ok: false,
      error: `--allow-skipped takes missing-precondition kinds (${PRECONDITION_KINDS.join(", ")}), not ${bad.join(", ")}`,
    };
  return { ok: true, kinds: items as SkipKind[] };
}

/** One line of the skip tally: a kind, how many checks, and whether it fails the run. */
export interface SkipTally {
  kind: SkipKind;
  count: number;
  /** a missing precondition the person running the suite could provide */
  precondition: boolean;
  /** a precondition skip that does not fail the run: named by --allow-skipped, or on a synthetic target */
  allowed: boolean;
  /** why it is allowed: "--allow-skipped" or "synthetic target" */
  allowedBy?: "--allow-skipped" | "synthetic target";
  /** the first such check's reason (they share it, or differ only in detail) */
  reason: string;
  checks: string[];
}

export function skipKindOf(c: CheckResult): SkipKind {
  return c.skipKind ?? "not-applicable";
}

/**
 * The skips of a run by kind. A precondition skip fails the run unless `--allow-skipped` names its kind, or the run
 * judged a synthetic target (the canary answered 200 without its token: a mock judged on what it serves).
 */
export function tallySkips(checks: CheckResult[], allowed: readonly SkipKind[], synthetic: boolean): SkipTally[] {
  const byKind = new Map<SkipKind, SkipTally>();
  for (const c of checks) {
    if (c.status !== "skipped") continue;
    const kind = skipKindOf(c);
    const precondition = SKIP_KINDS[kind].precondition;
    let t = byKind.get(kind);
    if (!t) {
      const named = allowed.includes(kind);
      const allowedBy = !precondition
        ? undefined
        : named
          ? "--allow-skipped"
          : synthetic
            ? "synthetic target"
            : undefined;
      t = {
        kind,
        count: 0,
        precondition,
        allowed: !precondition || allowedBy !== undefined,
        ...(allowedBy ? { allowedBy } : {}),
        reason: c.reason ?? SKIP_KINDS[kind].label,
        checks: [],
      };
      byKind.set(kind, t);
    }
    t.count++;
    t.checks.push(c.id);
  }
  const order = Object.keys(SKIP_KINDS);
  return [...byKind.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

/** The skips that fail the run. */
export const unmet = (tally: SkipTally[]) => tally.filter((t) => !t.allowed);

/** `1 check`, `25 checks` */
export const checkCount = (t: SkipTally) => `${t.count} check${t.count === 1 ? "" : "s"}`;

/** `25 synthetic, 4 payment-key` */
export const tallyText = (tally: SkipTally[]) => tally.map((t) => `${t.count} ${t.kind}`).join(", ");

/** What a run with unmet preconditions says, one line per kind, with the way out. */
export function unmetLines(tally: SkipTally[]): string[] {
  return unmet(tally).map(
    (t) =>
      `precondition not met: ${t.kind} (${checkCount(t)} skipped: ${SKIP_KINDS[t.kind].label}): ${t.reason}; to accept these skips, --allow-skipped ${t.kind}`,
  );
}
