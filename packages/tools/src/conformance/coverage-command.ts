// `plumbline conform coverage [--write | --check]` (declared in conformance/cli.ts): the statement-coverage table of
// conformance/README.md, rendered from statement-coverage.ts (printed, written into the README, or compared with
// it: exit 1 when stale).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderCoverageTable, withCoverageTable } from "./statement-coverage.ts";

export const CONFORMANCE_README = fileURLToPath(new URL("./README.md", import.meta.url));

export function coverageTable(values: { write?: boolean; check?: boolean }): number {
  if (!values.write && !values.check) {
    console.log(renderCoverageTable());
    return 0;
  }
  const current = readFileSync(CONFORMANCE_README, "utf8");
  const next = withCoverageTable(current);
  if (values.check) {
    if (next === current) return 0;
    console.error("conformance/README.md: the statement-coverage table is stale (plumbline conform coverage --write)");
    return 1;
  }
  writeFileSync(CONFORMANCE_README, next);
  console.log(`wrote the statement-coverage table to ${CONFORMANCE_README}`);
  return 0;
}
