// The cases of every fuzzable operation: a JSON body (body-cases.ts) or query parameters (query-cases.ts). Valid
// cases come from the schema compiler; invalid ones carry exactly one labelled violation.

import type { OperationSpec } from "@plumbline-kit/contract";
import type fc from "fast-check";
import type { FuzzCase } from "../fuzz-case.ts";
import type { FixtureSite } from "../http/fixture-site.ts";
import { bodyCases } from "./body-cases.ts";
import { queryCases } from "./query-cases.ts";

export interface OperationCases {
  operationId: string;
  valid: fc.Arbitrary<FuzzCase>;
  /** null when nothing of the request can be broken (no body, no constrained parameter) */
  invalid: fc.Arbitrary<FuzzCase> | null;
}

export interface CaseOptions {
  /** operationIds to fuzz (default: every one with a body or query parameters) */
  only?: string[];
  /** printable ASCII text only */
  ascii?: boolean;
  /** a fixture site the target can fetch (--fixture-url): URIs of valid bodies name its pages */
  site?: FixtureSite | null;
}

/** The cases of every fuzzable operation (a request body or query parameters), optionally restricted. */
export function operationCases(operations: OperationSpec[], o: CaseOptions = {}): OperationCases[] {
  const out: OperationCases[] = [];
  for (const op of operations) {
    if (op.discovery || (o.only && !o.only.includes(op.operationId))) continue;
    const cases = op.requestSchema ? bodyCases(op, o.ascii ?? false, o.site ?? null) : queryCases(op);
    if (cases) out.push(cases);
  }
  return out;
}
