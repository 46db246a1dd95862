// The operation index: one record per operation of the document, the shape every server and client iterates.
import type { OpenApiDocument } from "./document.ts";
import type { JsonSchema } from "./json-schema.ts";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** How an operation treats credentials (interface-spec "Authentication" 1; D-status-auth). */
export type AuthMode = "required" | "optional" | "none";

export interface Pricing {
  credits: number;
  price: string;
  protocol: string;
  surcharge?: { parameter: string; perUnitOperation: string; description: string };
}

export interface ResponseSpec {
  status: number;
  description: string;
  /** content type → schema (binary media types have a `type: string` schema) */
  content: Record<string, JsonSchema>;
  headers: Record<string, { required: boolean; schema: JsonSchema }>;
}

export interface ParameterSpec {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/deepcrawl/status/{taskId}` */
  path: string;
  /** The same path in find-my-way syntax, e.g. `/deepcrawl/status/:taskId` */
  routePath: string;
  summary: string;
  auth: AuthMode;
  /** true for the discovery documents served beside the contract's 11 operations */
  discovery: boolean;
  pricing: Pricing | null;
  /** maximum entries of an array (batch) body, when the operation accepts one */
  batchMax: number | null;
  requestSchema: JsonSchema | null;
  parameters: ParameterSpec[];
  responses: Map<number, ResponseSpec>;
  /** the statuses the operation lists, ascending */
  statuses: number[];
  requestExamples: Record<string, unknown>;
}

const METHODS: HttpMethod[] = ["get", "post", "put", "patch", "delete"];

type Obj = Record<string, unknown>;

function authMode(security: Obj[] | undefined): AuthMode {
  if (!security || security.length === 0) return "none";
  const anonymousAllowed = security.some((req) => Object.keys(req).length === 0);
  return anonymousAllowed ? "optional" : "required";
}

/** An operation's price (`x-pricing`), or null for a free one: the price table and `spec diff` read it here. */
export function pricingOf(op: Obj): Pricing | null {
  return (op["x-pricing"] as Pricing | undefined) ?? null;
}

/** Builds the index from a dereferenced document. */
export function indexOperations(doc: OpenApiDocument): OperationSpec[] {
  const ops: OperationSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Obj)[method] as Obj | undefined;
      if (!op) continue;
      const security = (op.security ?? doc.security) as Obj[] | undefined;
      const body = (op.requestBody as Obj | undefined)?.content as Obj | undefined;
      const json = body?.["application/json"] as Obj | undefined;
      const responses = new Map<number, ResponseSpec>();
      for (const [code, r] of Object.entries((op.responses ?? {}) as Obj)) {
        const res = r as Obj;
        const content: Record<string, JsonSchema> = {};
        for (const [ct, media] of Object.entries((res.content ?? {}) as Obj)) {
          content[ct] = ((media as Obj).schema ?? {}) as JsonSchema;
        }
        const headers: ResponseSpec["headers"] = {};
        for (const [name, h] of Object.entries((res.headers ?? {}) as Obj)) {
          const header = h as Obj;
          headers[name.toLowerCase()] = {
            required: header.required === true,
            schema: (header.schema ?? {}) as JsonSchema,
          };
        }
        responses.set(Number(code), {
          status: Number(code),
          description: String(res.description ?? ""),
          content,
          headers,
        });
      }
      const examples: Record<string, unknown> = {};
      for (const [name, ex] of Object.entries((json?.examples ?? {}) as Obj)) {
        examples[name] = (ex as Obj).value;
      }
      ops.push({
        operationId: String(op.operationId),
        method,
        path,
        routePath: path.replace(/\{([^}]+)\}/g, ":$1"),
        summary: String(op.summary ?? ""),
        auth: authMode(security),
        discovery: op["x-discovery"] === true,
        pricing: pricingOf(op),
        batchMax: ((op["x-batch"] as Obj | undefined)?.maxItems as number | undefined) ?? null,
        requestSchema: (json?.schema as JsonSchema | undefined) ?? null,
        parameters: ((op.parameters ?? []) as Obj[]).map((p) => ({
          name: String(p.name),
          in: p.in as ParameterSpec["in"],
          required: p.required === true,
          schema: (p.schema ?? {}) as JsonSchema,
        })),
        responses,
        statuses: [...responses.keys()].sort((a, b) => a - b),
        requestExamples: examples,
      });
    }
  }
  return ops;
}
