// Response headers on the docs page. Headers that every response lists (`x-request-id`, `Link`: D-headers) are
// described once at the top; each response then names them and describes only its own.
import type { Contract, JsonSchema } from "@plumbline-kit/contract";
import { escapeHtml, inline } from "./docs-html.ts";
import { typeLabel } from "./docs-schema-table.ts";

type Obj = Record<string, unknown>;

export function headerItem(name: string, h: Obj, ids: ReadonlySet<string>): string {
  const required = h.required === true ? ' <span class="req">required</span>' : "";
  const describe = typeof h.description === "string" ? h.description : typeLabel((h.schema ?? {}) as JsonSchema);
  return `<li><code>${escapeHtml(name)}</code>${required}: ${inline(describe, ids)}</li>`;
}

/** Lowercased name → header object (with its `name` as written) for the headers every response lists. */
export function commonHeaders(contract: Contract): Map<string, Obj> {
  const perResponse: Array<Map<string, Obj>> = [];
  for (const op of contract.operations) {
    const item = (contract.document.paths?.[op.path] ?? {}) as Record<string, Obj | undefined>;
    const responses = (item[op.method]?.responses ?? {}) as Record<string, Obj>;
    for (const res of Object.values(responses)) {
      const headers = Object.entries((res.headers ?? {}) as Record<string, Obj>);
      perResponse.push(new Map(headers.map(([name, h]) => [name.toLowerCase(), { ...h, name }])));
    }
  }
  const [first, ...rest] = perResponse;
  if (!first) return new Map();
  return new Map([...first].filter(([name]) => rest.every((m) => m.has(name))));
}

export function renderCommonHeaders(common: Map<string, Obj>, ids: ReadonlySet<string>): string {
  if (common.size === 0) return "";
  const items = [...common.values()].map((h) => headerItem(String(h.name), h, ids));
  return `<h4>Headers on every response</h4>\n<ul class="headers">${items.join("")}</ul>`;
}
