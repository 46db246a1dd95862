// Valid and invalid cases of an operation with query parameters and no body (GET /usage): a query string carries
// text only, so only the violations a string can express apply; the status is 422, or 400 where the operation
// lists no 422 (D-validation-status), with errors[] naming /query/<name> either way.

import type { OperationSpec } from "@plumbline-kit/contract";
import fc from "fast-check";
import type { FuzzCase } from "../fuzz-case.ts";
import { label } from "./case-labels.ts";
import type { OperationCases } from "./operation-cases.ts";
import { compileSchema } from "./schema-arbitrary.ts";
import { type Violation, violationSlots } from "./violation-slots.ts";

/** Cases of an operation with query parameters and no body (GET /usage). */
export function queryCases(op: OperationSpec): OperationCases | null {
  const params = op.parameters.filter((p) => p.in === "query");
  if (params.length === 0 || op.parameters.some((p) => p.in === "path")) return null;
  const get = (query: Record<string, unknown>, violation: Violation | null = null): FuzzCase => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return {
      operationId: op.operationId,
      request: { method: "GET", path: qs ? `${op.path}?${qs}` : op.path },
      violation,
    };
  };
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of params) model[p.name] = compileSchema(p.schema);
  const valid = fc.record(model, { requiredKeys: params.filter((p) => p.required).map((p) => p.name) });
  const status = op.statuses.includes(422) ? 422 : 400;
  const slots = params.flatMap((p) =>
    violationSlots(p.schema, `/query/${p.name}`).filter((s) =>
      ["bad-enum", "too-short", "too-long", "bad-format"].includes(s.kind),
    ),
  );
  if (slots.length === 0) return { operationId: op.operationId, valid: valid.map((q) => get(q)), invalid: null };
  const invalid = fc.tuple(valid, fc.constantFrom(...slots)).chain(([query, s]) =>
    s.draw
      .filter(({ value }) => typeof value === "string")
      .map(({ pointer, value }) => {
        const name = pointer.slice("/query/".length);
        const v: Violation = {
          kind: "bad-parameter",
          label: label(s.kind, pointer, value),
          status,
          field: pointer,
          keyword: s.keyword,
        };
        return get({ ...query, [name]: value }, v);
      }),
  );
  return { operationId: op.operationId, valid: valid.map((q) => get(q)), invalid };
}
