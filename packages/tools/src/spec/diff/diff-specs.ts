// diffSpecs(): two versions of the contract compared by meaning, every change with its rule, level, pointers on
// both sides and a reason written from the client's side. `plumbline spec diff` is a thin CLI over it.
import { ChangeCollector, type SpecChange } from "./changes.ts";
import {
  compareCurrency,
  compareErrorCodes,
  comparePricing,
  compareRateLimits,
  pricingIndex,
} from "./contract-diff.ts";
import { compareOperation, listOperations, matchOperations } from "./operation-diff.ts";
import { createResolver } from "./resolve.ts";
import { LEVEL_RANK, type Level } from "./rules.ts";
import { compareSecurity } from "./security-diff.ts";
import { applySeverity, type SeverityOverrides } from "./severity.ts";
import { readSpecSource, type SpecSource } from "./spec-source.ts";
import { separateUndescribed, type UndescribedGroup, type UndescribedMode } from "./undescribed.ts";

export interface DiffOptions {
  /** rule id → level, or "off" to drop the rule's changes (`--severity FILE`) */
  severity?: SeverityOverrides;
  /** working directory of file paths and `git:REF:path` (default: the process's) */
  cwd?: string;
  /**
   * what a kind of thing REVISION does not describe at all becomes (`--undescribed`): "apart" (default), its own
   * group, counted in no level; "removed", removals at their rules' levels like any other
   */
  undescribed?: UndescribedMode;
}

export interface DiffResult {
  base: string;
  revision: string;
  /** the file REVISION's annotations name */
  revisionFile: string;
  changes: SpecChange[];
  counts: Record<Level, number>;
  /** what BASE describes and REVISION says nothing about, set apart from `changes` and `counts` (undescribed.ts) */
  undescribed: UndescribedGroup[];
}

export type FailOn = "breaking" | "warning";

/** 1 when a change reaches the level `--fail-on` names (warning: potentially breaking or worse), else 0. */
export function diffExitCode(result: DiffResult, failOn: FailOn | undefined): 0 | 1 {
  if (!failOn) return 0;
  const worst = failOn === "breaking" ? LEVEL_RANK.breaking : LEVEL_RANK["potentially-breaking"];
  return result.changes.some((c) => LEVEL_RANK[c.level] <= worst) ? 1 : 0;
}

/** Compares two documents (sources read with readSpecSource, or a path / `git:REF:path` to read). */
export async function diffSpecs(
  base: SpecSource | string,
  revision: SpecSource | string,
  options: DiffOptions = {},
): Promise<DiffResult> {
  const [b, r] = await Promise.all(
    [base, revision].map((s) => (typeof s === "string" ? readSpecSource(s, { cwd: options.cwd }) : s)),
  );
  const out = new ChangeCollector({ base: b, revision: r });
  const resolvers = { base: createResolver(b.document, b.label), revision: createResolver(r.document, r.label) };
  const sides = { ...resolvers, out };
  const operations = { base: listOperations(resolvers.base), revision: listOperations(resolvers.revision) };
  const pairs = matchOperations(operations.base, operations.revision, out);
  const prices = { base: pricingIndex(operations.base), revision: pricingIndex(operations.revision) };
  for (const pair of pairs) {
    compareOperation(pair, sides);
    compareSecurity(pair, resolvers.base, resolvers.revision, out);
    comparePricing(pair, prices, out);
    compareErrorCodes(pair, resolvers.base, resolvers.revision, out);
  }
  compareCurrency(resolvers.base, resolvers.revision, out);
  compareRateLimits(resolvers.base, resolvers.revision, out);
  const severity = options.severity ?? {};
  const order = (list: SpecChange[]) =>
    applySeverity(list, severity).sort(
      (x, y) =>
        LEVEL_RANK[x.level] - LEVEL_RANK[y.level] ||
        (x.revision?.line ?? 0) - (y.revision?.line ?? 0) ||
        x.rule.localeCompare(y.rule) ||
        x.message.localeCompare(y.message),
    );
  const split = separateUndescribed(out.changes(), { ...resolvers, operations, pairs }, options.undescribed);
  const changes = order(split.changes);
  const undescribed = split.groups.map((g) => ({ ...g, changes: order(g.changes) }));
  const counts: Record<Level, number> = { breaking: 0, "potentially-breaking": 0, "non-breaking": 0 };
  for (const c of changes) counts[c.level]++;
  return { base: b.label, revision: r.label, revisionFile: r.file, changes, counts, undescribed };
}
