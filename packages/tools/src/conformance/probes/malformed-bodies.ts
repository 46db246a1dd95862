// Shared probe: requests that are not schema violations but unusable bodies or parameters (D-validation-status:
// malformed JSON, a non-JSON content type, a body that is neither an object nor a non-empty array, a bad query
// parameter on an operation that lists no 422), derived from the document (issue 35): the body shapes are those the
// contract's own validators call a shape error (400), and the query cases every enum parameter's unknown value on an
// operation without 422. Each kind of body goes to one operation taking a body, in turn, so every kind and every
// operation in scope are met in max(kinds, operations) requests, not their product (an operation with a rate window
// of its own aside). Sent between two balance readings: rejected calls are free.

import type { Contract } from "@plumbline-kit/contract";
import { baseBody } from "@plumbline-kit/contract/bounds";
import { type Measured, measureCharge } from "../check-helpers.ts";
import type { CallOptions } from "../http-client.ts";
import type { OperationScope } from "../operation-scope.ts";
import type { Exchange, Probe } from "../types.ts";

export interface MalformedCase {
  label: string;
  method: string;
  path: string;
  options: CallOptions;
}

// JSON values that are no request body at all; kept where the contract's validators call them a shape error
const SHAPES: Array<{ label: string; raw: string }> = [
  { label: "a JSON string body", raw: '"just a string"' },
  { label: "a JSON null body", raw: "null" },
  { label: "a JSON number body", raw: "7" },
  { label: "a JSON boolean body", raw: "true" },
  { label: "an empty array", raw: "[]" },
];

/** The malformed requests of the operations in scope. */
export function malformedCases(contract: Contract, scope: OperationScope): MalformedCase[] {
  const inScope = contract.contractOperations.filter((o) => o.requestSchema && scope.has(o.operationId));
  // an operation with a rate window of its own (/screenshot: 10 a minute, filled by the run's other screenshot
  // calls) gets none, unless it is all the run covers
  const unwindowed = inScope.filter((o) => contract.rateLimits.perOperation[o.operationId] === undefined);
  const withBody = unwindowed.length ? unwindowed : inScope;
  const kinds: Array<(op: (typeof withBody)[number]) => MalformedCase | null> = [
    (op) => ({ label: "malformed JSON", method: "POST", path: op.path, options: { raw: '{"query": "unterminated' } }),
    (op) => ({
      label: "a text/plain content type",
      method: "POST",
      path: op.path,
      options: { raw: JSON.stringify(baseBody(op)), contentType: "text/plain" },
    }),
    ...SHAPES.map((shape) => (op: (typeof withBody)[number]) => {
      const r = contract.validators.checkBody(op.operationId, JSON.parse(shape.raw));
      return !r.ok && r.kind === "shape"
        ? { label: shape.label, method: "POST", path: op.path, options: { raw: shape.raw } }
        : null;
    }),
  ];
  const out: MalformedCase[] = [];
  if (withBody.length) {
    const n = Math.max(kinds.length, withBody.length);
    for (let i = 0; i < n; i++) {
      const op = withBody[i % withBody.length];
      const c = kinds[i % kinds.length](op);
      if (c) out.push({ ...c, label: `${c.label} (${op.operationId})` });
    }
  }
  // an unknown value of every enum query parameter, where the operation lists no 422 (its bad parameter is a 400)
  for (const op of contract.contractOperations.filter((o) => scope.has(o.operationId) && !o.statuses.includes(422)))
    for (const p of op.parameters.filter((x) => x.in === "query" && Array.isArray(x.schema?.enum))) {
      const value = "__plumbline_unknown__";
      if (contract.validators.checkParameters(op.operationId, { query: { [p.name]: value } }).ok) continue;
      const path = `${op.path}?${encodeURIComponent(p.name)}=${value}`;
      out.push({
        label: `an unknown ${p.name} (${op.operationId})`,
        method: op.method.toUpperCase(),
        path,
        options: {},
      });
    }
  return out;
}

export interface MalformedProbe {
  sent: Array<{ case: MalformedCase; exchange: Exchange }>;
  measured: Measured<Exchange[]>;
}

export const malformedBodiesProbe: Probe<MalformedProbe> = {
  id: "malformed-bodies",
  cost: () => 0,
  async run(ctx) {
    const sent: MalformedProbe["sent"] = [];
    const measured = await measureCharge(ctx, "probe:malformed-bodies", async () => {
      for (const c of malformedCases(ctx.contract, ctx.scope)) {
        sent.push({ case: c, exchange: await ctx.http.call("probe:malformed-bodies", c.method, c.path, c.options) });
      }
      return sent.map((s) => s.exchange);
    });
    return { sent, measured };
  },
};
