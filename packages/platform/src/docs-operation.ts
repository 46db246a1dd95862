// One operation of the docs page: method and path, prose, auth, price, batch limit, parameters, request body
// table, request examples and every listed response, all read from the contract.
import { type Contract, type OperationSpec, STATUS_LABELS } from "@plumbline-kit/contract";
import { headerItem } from "./docs-headers.ts";
import { anchorId, escapeHtml, inline, paragraphs, prettyJson, table } from "./docs-html.ts";
import { bodyShape, constraints, fieldRows, renderFieldTable, typeLabel } from "./docs-schema-table.ts";

type Obj = Record<string, unknown>;

/** What every operation section of one page shares. */
export interface DocsContext {
  contract: Contract;
  /** decision ids, to link `D-…` mentions */
  ids: ReadonlySet<string>;
  /** lowercased names of the headers every response carries */
  commonHeaders: ReadonlySet<string>;
}

export const operationAnchor = (op: OperationSpec) => `op-${anchorId(op.operationId)}`;

/** The operation object as the dereferenced document holds it: prose the operation index leaves out. */
function operationObject(contract: Contract, op: OperationSpec): Obj {
  const item = (contract.document.paths?.[op.path] ?? {}) as Obj;
  return (item[op.method] ?? {}) as Obj;
}

function authText(op: OperationSpec): string {
  if (op.auth === "none") return "None: no credential needed.";
  if (op.auth === "optional")
    return "Bearer credential; a task paid per request (no account) is read by its id alone (D-status-auth).";
  if (op.pricing)
    return "Bearer credential, or pay per request: an anonymous call is answered with the 402 challenge (D-auth).";
  return "Bearer credential required (D-auth).";
}

function priceText(op: OperationSpec, currency: string): string {
  const p = op.pricing;
  if (!p) return "Free.";
  const credits = `${p.credits} credit${p.credits === 1 ? "" : "s"}`;
  const base = `${credits}, or ${p.price} ${currency.toUpperCase()} per call (protocol ${p.protocol}).`;
  if (!p.surcharge) return base;
  return `${base} Surcharge on \`${p.surcharge.parameter}\` (each unit billed as one ${p.surcharge.perUnitOperation}): ${p.surcharge.description}`;
}

function facts(op: OperationSpec, currency: string, ids: ReadonlySet<string>): string {
  const rows: Array<[string, string]> = [
    ["Operation id", `<code>${escapeHtml(op.operationId)}</code>`],
    ["Auth", inline(authText(op), ids)],
    ["Price", inline(priceText(op, currency), ids)],
  ];
  if (op.batchMax !== null)
    rows.push(["Batch limit", inline(`Up to ${op.batchMax} entries in an array body (D-batch-limits).`, ids)]);
  if (op.discovery) rows.push(["Kind", "Discovery document served beside the API."]);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function parametersTable(raw: Obj, op: OperationSpec, ids: ReadonlySet<string>): string {
  if (op.parameters.length === 0) return "";
  const docs = new Map(((raw.parameters ?? []) as Obj[]).map((p) => [`${p.in}:${p.name}`, p]));
  const rows = op.parameters.map((p) => {
    const doc = docs.get(`${p.in}:${p.name}`) ?? {};
    const decision = typeof doc["x-decision"] === "string" ? doc["x-decision"] : "";
    let description = String(doc.description ?? p.schema.description ?? "");
    if (decision && !description.includes(decision)) description = `${description} (${decision})`.trim();
    const example = doc.example === undefined ? "" : ` Example: \`${String(doc.example)}\`.`;
    return [
      `<td class="field"><code>${escapeHtml(p.name)}</code></td>`,
      `<td>${escapeHtml(p.in)}</td>`,
      `<td class="type">${escapeHtml(typeLabel(p.schema))}</td>`,
      `<td>${p.required ? '<strong class="req">required</strong>' : "optional"}</td>`,
      `<td class="bounds">${constraints(p.schema)
        .map((c) => escapeHtml(c))
        .join("<br>")}</td>`,
      `<td>${inline(description + example, ids)}</td>`,
    ];
  });
  return `<h4>Parameters</h4>\n${table(["Name", "In", "Type", "Required", "Bounds, values", "Description"], rows)}`;
}

function requestBody(raw: Obj, op: OperationSpec, ids: ReadonlySet<string>): string {
  if (!op.requestSchema) return "";
  const { shape, object } = bodyShape(op.requestSchema);
  const described = object?.description ? ` ${object.description}` : "";
  const closed = object?.additionalProperties === false && !/no other fields/i.test(described);
  const note = closed ? " No other fields are accepted." : "";
  const out = [
    "<h4>Request body</h4>",
    `<p>JSON: ${inline(shape)}.${inline(described + note, ids)}</p>`,
    renderFieldTable(object ? fieldRows(object) : [], ids),
  ];
  const media = ((raw.requestBody as Obj | undefined)?.content as Obj | undefined)?.["application/json"] as
    | Obj
    | undefined;
  const examples = (media?.examples ?? {}) as Record<string, Obj>;
  const names = Object.keys(op.requestExamples);
  if (names.length) out.push(`<h4>Request example${names.length === 1 ? "" : "s"}</h4>`);
  for (const name of names) {
    const summary = typeof examples[name]?.summary === "string" ? ` — ${examples[name].summary}` : "";
    out.push(
      `<figure class="example"><figcaption><code>${escapeHtml(name)}</code>${escapeHtml(summary)}</figcaption>${prettyJson(op.requestExamples[name])}</figure>`,
    );
  }
  return out.join("\n");
}

function responsesTable(raw: Obj, op: OperationSpec, ctx: DocsContext): string {
  const docs = (raw.responses ?? {}) as Record<string, Obj>;
  const rows = op.statuses.map((status) => {
    const res = op.responses.get(status);
    const headerDocs = Object.entries((docs[String(status)]?.headers ?? {}) as Record<string, Obj>);
    const shared = headerDocs.filter(([name]) => ctx.commonHeaders.has(name.toLowerCase()));
    const own = headerDocs.filter(([name]) => !ctx.commonHeaders.has(name.toLowerCase()));
    const sharedNote = shared.length
      ? `<p>${shared.map(([name]) => `<code>${escapeHtml(name)}</code>`).join(", ")} <small>(<a href="#common-headers">every response</a>)</small></p>`
      : "";
    const ownList = own.length
      ? `<ul class="headers">${own.map(([n, h]) => headerItem(n, h, ctx.ids)).join("")}</ul>`
      : "";
    const types = Object.keys(res?.content ?? {});
    const label = STATUS_LABELS[status] ?? "";
    return [
      `<td class="status s${Math.floor(status / 100)}xx"><strong>${status}</strong><br><small>${escapeHtml(label)}</small></td>`,
      `<td>${paragraphs(res?.description, ctx.ids)}</td>`,
      `<td class="ctype">${types.map((t) => `<code>${escapeHtml(t)}</code>`).join("<br>") || "—"}</td>`,
      `<td>${sharedNote + ownList || "—"}</td>`,
    ];
  });
  return `<h4>Responses</h4>\n${table(["Status", "Description", "Content type", "Headers"], rows, "responses")}`;
}

export function renderOperation(ctx: DocsContext, op: OperationSpec): string {
  const { contract, ids } = ctx;
  const raw = operationObject(contract, op);
  const currency = String((contract.raw["x-pricing-currency"] as Obj | undefined)?.currency ?? "usd");
  const anchor = operationAnchor(op);
  return [
    `<section class="operation" id="${anchor}">`,
    `<h3><span class="method ${op.method}">${op.method.toUpperCase()}</span> <code class="path">${escapeHtml(op.path)}</code> <a class="permalink" href="#${anchor}" aria-label="link to this operation">#</a></h3>`,
    `<p class="summary">${inline(op.summary, ids)}</p>`,
    paragraphs(typeof raw.description === "string" ? raw.description : "", ids),
    facts(op, currency, ids),
    parametersTable(raw, op, ids),
    requestBody(raw, op, ids),
    responsesTable(raw, op, ctx),
    "</section>",
  ]
    .filter(Boolean)
    .join("\n");
}
