// Shared probe: requests that are not schema violations but unusable bodies or parameters (D-validation-status:
// malformed JSON, a non-JSON content type, a body that is neither an object nor a non-empty array, a bad query
// parameter on an operation that lists no 422). Sent between two balance readings: rejected calls are free.
import { type Measured, measureCharge } from "../check-helpers.ts";
import { type CallOptions, operationFor } from "../http-client.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";

export interface MalformedCase {
  label: string;
  method: string;
  path: string;
  options: CallOptions;
}

export const MALFORMED_CASES: MalformedCase[] = [
  { label: "malformed JSON", method: "POST", path: "/search", options: { raw: '{"query": "unterminated' } },
  { label: "a JSON string body", method: "POST", path: "/search", options: { raw: '"just a string"' } },
  { label: "a JSON null body", method: "POST", path: "/crawl", options: { raw: "null" } },
  { label: "an empty array", method: "POST", path: "/news", options: { raw: "[]" } },
  {
    label: "a text/plain content type",
    method: "POST",
    path: "/crawl",
    options: { raw: '{"url":"https://example.com/"}', contentType: "text/plain" },
  },
  { label: "an unknown usage period", method: "GET", path: "/usage?period=decade", options: {} },
];

export interface MalformedProbe {
  sent: Array<{ case: MalformedCase; exchange: Exchange }>;
  measured: Measured<Exchange[]>;
}

/**
 * The cases for the operations in scope: a body case aimed at an unselected operation goes to the first selected
 * operation that takes a body (every one of them answers these with 400), or is dropped when none does.
 */
export function scopedCases(ctx: RunContext): MalformedCase[] {
  const stand = ctx.contract.contractOperations.find((o) => o.requestSchema && ctx.scope.has(o.operationId));
  const out: MalformedCase[] = [];
  for (const c of MALFORMED_CASES) {
    const op = operationFor(ctx.contract, c.method, c.path);
    if (op === null || ctx.scope.has(op)) out.push(c);
    else if (c.method === "POST" && stand)
      out.push({ ...c, path: stand.path, label: `${c.label} (${stand.operationId})` });
  }
  return out;
}

export const malformedBodiesProbe: Probe<MalformedProbe> = {
  id: "malformed-bodies",
  cost: () => 0,
  async run(ctx) {
    const sent: MalformedProbe["sent"] = [];
    const measured = await measureCharge(ctx, "probe:malformed-bodies", async () => {
      for (const c of scopedCases(ctx)) {
        sent.push({ case: c, exchange: await ctx.http.call("probe:malformed-bodies", c.method, c.path, c.options) });
      }
      return sent.map((s) => s.exchange);
    });
    return { sent, measured };
  },
};
