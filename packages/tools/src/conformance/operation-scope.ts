// `--operations`: the operations a run covers (Schemathesis's --include-operation-id is the precedent). A target
// that implements part of the contract (the reference answers 502 for what has not landed) is judged on exactly
// that part: checks that only concern unselected operations are skipped, checks that span several cover the
// selected ones only, and the plan's cost counts only what will be sent.
//
// In scope: the selected operations; the platform's own operations (tags `account` and `discovery`: health,
// usage, the discovery documents), which every target serves; and the free companions of a selected operation
// (an operation without a price sharing its tag: the deepcrawl status poll when deepcrawl is selected).
import type { Contract, OperationSpec } from "@plumbline-kit/contract";

export interface OperationScope {
  /** the operation ids given, or null when the run covers every operation */
  readonly selected: string[] | null;
  has(operationId: string): boolean;
  /** the in-scope operations among `ids`, in their order */
  filter(ids: string[]): string[];
}

const PLATFORM_TAGS = new Set(["account", "discovery"]);

export function operationTags(contract: Contract, op: OperationSpec): string[] {
  const item = contract.document.paths?.[op.path] as Record<string, { tags?: string[] }> | undefined;
  return item?.[op.method]?.tags ?? [];
}

/** Every operation in scope: the full scope of a run without --operations. */
export const FULL_SCOPE: OperationScope = { selected: null, has: () => true, filter: (ids) => ids };

export type ScopeResult = { ok: true; scope: OperationScope } | { ok: false; error: string };

export function makeScope(contract: Contract, selection: string[]): ScopeResult {
  const known = contract.operations.map((o) => o.operationId);
  if (selection.length === 0) return { ok: true, scope: FULL_SCOPE };
  const unknown = selection.filter((id) => !known.includes(id));
  if (unknown.length)
    return {
      ok: false,
      error: `unknown operation id(s) in --operations: ${unknown.join(", ")} (the document's: ${known.join(", ")})`,
    };
  const selectedTags = new Set(
    contract.operations.filter((o) => selection.includes(o.operationId)).flatMap((o) => operationTags(contract, o)),
  );
  const inScope = new Set(
    contract.operations
      .filter((o) => {
        const tags = operationTags(contract, o);
        if (selection.includes(o.operationId) || tags.some((t) => PLATFORM_TAGS.has(t))) return true;
        return o.pricing === null && tags.some((t) => selectedTags.has(t));
      })
      .map((o) => o.operationId),
  );
  return {
    ok: true,
    scope: {
      selected: [...selection],
      has: (id) => inScope.has(id),
      filter: (ids) => ids.filter((id) => inScope.has(id)),
    },
  };
}

export const NOT_SELECTED = "operation not selected";
