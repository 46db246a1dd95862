// `plumbline conform --list`: one line per check of the registry: id, severity, basis, the operations it concerns,
// whether it is opt-in, and the interface section it enforces.

import { plural } from "@plumbline-kit/contract/report/plural";
import { checkOperations, inContract } from "./plan.ts";
import { CHECKS } from "./registry.ts";
import { loadContracts } from "./run-conformance.ts";

/** `spec`: another version of the contract (`--spec FILE`), whose operations the checks concern. */
export async function listChecks(spec?: string, version?: string): Promise<string[]> {
  const { contract, altContract: alt } = await loadContracts(spec, version);
  return CHECKS.filter((c) => inContract(c, contract)).map((c) => {
    const basis = c.basis.kind === "contract" ? "contract" : c.basis.kind === "client" ? "client" : c.basis.decision;
    const concerned = checkOperations(c, contract, alt);
    const ops = !concerned
      ? "(platform)"
      : concerned.length > 3
        ? `${plural(concerned.length, "operation")}`
        : concerned.join(",");
    return `${c.id.padEnd(34)} ${c.severity.padEnd(8)} ${basis.padEnd(26)} ${ops.padEnd(24)} ${c.optIn ? "opt-in " : ""}§ ${c.section}`;
  });
}
