// `--mock OPERATIONS` / `--forward OPERATIONS`: operations named by their operationId (`deepcrawlStatus`) or as the
// command line and the MCP tools spell them (`deepcrawl-status`, `deepcrawl_status`), case and separators ignored.
import type { Contract } from "@plumbline-kit/contract";

const norm = (s: string) => s.toLowerCase().replace(/[-_\s/]/g, "");

export type NamesResult = { ok: true; operationIds: string[] } | { ok: false; error: string };

export function resolveOperationNames(contract: Contract, names: string[], flag: string): NamesResult {
  const byNorm = new Map(contract.operations.map((o) => [norm(o.operationId), o.operationId]));
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const name of names
    .flatMap((n) => n.split(","))
    .map((n) => n.trim())
    .filter(Boolean)) {
    const id = byNorm.get(norm(name));
    if (id) ids.push(id);
    else unknown.push(name);
  }
  if (unknown.length)
    return {
      ok: false,
      error: `unknown operation(s) in ${flag}: ${unknown.join(", ")} (valid: ${contract.contractOperations.map((o) => o.operationId).join(", ")}; discovery: ${contract.operations
        .filter((o) => o.discovery)
        .map((o) => o.operationId)
        .join(", ")})`,
    };
  return { ok: true, operationIds: [...new Set(ids)] };
}

/** The first segment of a path (`/deepcrawl/status/x` → `deepcrawl`): the family a request belongs to. */
export const familyOf = (path: string) => path.split("?")[0].split("/")[1] ?? "";

/**
 * The path families the mock answers when these operations are mocked: each operation's first path segment, so a
 * mocked deepcrawl brings its status polls and zip links along (the upstream knows nothing of the mock's tasks).
 */
export function mockedFamilies(contract: Contract, mocked: string[]): Set<string> {
  return new Set(mocked.map((id) => familyOf(contract.operation(id).path)));
}
