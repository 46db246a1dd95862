// Compiled request and response validators (issue 2 §4): ajv, JSON Schema 2020-12, ajv-formats, no coercion,
// no removal of unknown properties, all errors collected. Errors come out as the contract's `errors[]` items
// (D-error-codes), and the 400/422 split of D-validation-status is decided here, once.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { FieldError } from "./error-body.ts";
import type { JsonSchema } from "./json-schema.ts";
import { schemaTypes } from "./json-schema.ts";
import type { OperationSpec } from "./operations.ts";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/** Outcome of checking a request body. `shape` → 400 (D-validation-status); `schema` → 422. */
export type BodyCheck =
  | { ok: true; batch: boolean }
  | { ok: false; kind: "shape" }
  | { ok: false; kind: "schema"; errors: FieldError[] };

export type ParameterCheck = { ok: true } | { ok: false; errors: FieldError[] };

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    validateFormats: true,
  });
  addFormats(ajv);
  return ajv;
}

/** A name as one JSON Pointer reference token (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** One ajv error → one `errors[]` item; `field` is the JSON Pointer of the violated (or missing/unknown) field. */
export function toFieldError(e: ErrorObject, prefix = ""): FieldError {
  let field = prefix + e.instancePath;
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "required") field += `/${escapePointerToken(String(params.missingProperty))}`;
  if (e.keyword === "additionalProperties") field += `/${escapePointerToken(String(params.additionalProperty))}`;
  let message = e.message ?? "is not valid";
  if (e.keyword === "enum")
    message += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  if (e.keyword === "additionalProperties") message = "is not an accepted property";
  if (e.keyword === "required") message = "is required";
  return { field, message: `${field || "body"} ${message}`, code: e.keyword };
}

export function toFieldErrors(errors: ErrorObject[] | null | undefined, prefix = ""): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    // `if`/`oneOf`/`anyOf` summaries repeat what their branches already said
    if (e.keyword === "oneOf" || e.keyword === "anyOf" || e.keyword === "if") continue;
    const fe = toFieldError(e, prefix);
    const key = `${fe.field}\u0000${fe.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(fe);
  }
  return out;
}

interface BodyValidator {
  object?: ValidateFunction;
  array?: ValidateFunction;
}

interface ResponseValidator {
  /** content type → validator; binary types have none */
  json: Map<string, ValidateFunction>;
  contentTypes: string[];
  headers: Map<string, { required: boolean; validate: ValidateFunction }>;
}

export interface ContractValidators {
  /** Request body check, with the 400/422 split decided (D-validation-status). */
  checkBody(operationId: string, body: unknown): BodyCheck;
  /** Query and path parameters (`field` is `/query/<name>` or `/path/<name>`). */
  checkParameters(
    operationId: string,
    params: { query?: Record<string, unknown>; path?: Record<string, unknown> },
  ): ParameterCheck;
  /** Response body check; `null` when it conforms. Binary content is checked only for its content type. */
  checkResponse(
    operationId: string,
    status: number,
    contentType: string | undefined,
    body: unknown,
  ): FieldError[] | null;
  /** Response header check: required headers present, values match their schemas. */
  checkResponseHeaders(operationId: string, status: number, headers: Record<string, unknown>): FieldError[] | null;
  /** A validator for any schema of the document (e.g. DeepcrawlManifest). */
  compile(schema: JsonSchema): (value: unknown) => FieldError[] | null;
}

/** Splits a `oneOf` of an object form and an array form (the single-or-batch bodies) into its two branches. */
function splitBranches(schema: JsonSchema): { object?: JsonSchema; array?: JsonSchema } {
  const branches = schema.oneOf ?? [schema];
  const out: { object?: JsonSchema; array?: JsonSchema } = {};
  for (const b of branches) {
    const types = schemaTypes(b);
    if (types.includes("array")) out.array = b;
    else out.object = b;
  }
  return out;
}

export function normalizeContentType(ct: string | undefined): string {
  return (ct ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * A validator compiled at its first use, for a document known to compile (the bundled ones, checked by the build):
 * a command compiles what it judges, not the whole document (compiling every schema took ~165 ms of each start).
 */
function compiledOnUse(ajv: Ajv2020, schema: JsonSchema): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  }) as ValidateFunction;
  return validate;
}

export interface ValidatorOptions {
  /**
   * "eager" (the default) compiles every schema now, so a document whose schemas do not compile (a pattern that is
   * no regular expression) fails where it is loaded, not at a request; "on-use" compiles each at its first use,
   * for documents the build compiled already.
   */
  compile?: "eager" | "on-use";
}

export function createValidators(
  operations: OperationSpec[],
  ajv: Ajv2020 = createAjv(),
  options: ValidatorOptions = {},
): ContractValidators {
  const compile = (schema: JsonSchema): ValidateFunction =>
    options.compile === "on-use" ? compiledOnUse(ajv, schema) : ajv.compile(schema);
  const bodies = new Map<string, BodyValidator>();
  const params = new Map<string, { query?: ValidateFunction; path?: ValidateFunction }>();
  const responses = new Map<string, Map<number, ResponseValidator>>();

  for (const op of operations) {
    if (op.requestSchema) {
      const { object, array } = splitBranches(op.requestSchema);
      bodies.set(op.operationId, {
        object: object ? compile(object) : undefined,
        array: array ? compile(array) : undefined,
      });
    }
    const byLocation: { query?: ValidateFunction; path?: ValidateFunction } = {};
    for (const where of ["query", "path"] as const) {
      const ps = op.parameters.filter((p) => p.in === where);
      if (ps.length === 0) continue;
      byLocation[where] = compile({
        type: "object",
        properties: Object.fromEntries(ps.map((p) => [p.name, p.schema])),
        required: ps.filter((p) => p.required).map((p) => p.name),
        // unknown query parameters are ignored, as HTTP APIs commonly do (and credentials there: D-auth)
        additionalProperties: true,
      });
    }
    params.set(op.operationId, byLocation);
    const perStatus = new Map<number, ResponseValidator>();
    for (const [status, res] of op.responses) {
      const json = new Map<string, ValidateFunction>();
      for (const [ct, schema] of Object.entries(res.content)) {
        if (ct.includes("json")) json.set(ct, compile(schema));
      }
      const headers = new Map<string, { required: boolean; validate: ValidateFunction }>();
      for (const [name, h] of Object.entries(res.headers)) {
        headers.set(name, { required: h.required, validate: compile(h.schema) });
      }
      perStatus.set(status, { json, contentTypes: Object.keys(res.content), headers });
    }
    responses.set(op.operationId, perStatus);
  }

  function need<T>(map: Map<string, T>, id: string): T {
    const v = map.get(id);
    if (v === undefined) throw new Error(`no operation "${id}" in the contract`);
    return v;
  }

  return {
    checkBody(operationId, body) {
      const v = need(bodies, operationId);
      const isArray = Array.isArray(body);
      if (body === null || typeof body !== "object" || (isArray && body.length === 0)) {
        return { ok: false, kind: "shape" };
      }
      const validate = isArray ? v.array : v.object;
      if (!validate) {
        // e.g. an array sent to /screenshot: a type violation of the only form there is
        return {
          ok: false,
          kind: "schema",
          errors: [{ field: "", message: `body must be ${isArray ? "object" : "array"}`, code: "type" }],
        };
      }
      if (validate(body)) return { ok: true, batch: isArray };
      return { ok: false, kind: "schema", errors: toFieldErrors(validate.errors) };
    },
    checkParameters(operationId, input) {
      const v = need(params, operationId);
      const errors: FieldError[] = [];
      for (const where of ["query", "path"] as const) {
        const validate = v[where];
        if (validate && !validate(input[where] ?? {})) errors.push(...toFieldErrors(validate.errors, `/${where}`));
      }
      return errors.length ? { ok: false, errors } : { ok: true };
    },
    checkResponse(operationId, status, contentType, body) {
      const r = need(responses, operationId).get(status);
      if (!r) return [{ field: "", message: `status ${status} is not listed for ${operationId}`, code: "status" }];
      const ct = normalizeContentType(contentType);
      if (r.contentTypes.length === 0) return null;
      if (!r.contentTypes.includes(ct)) {
        return [
          {
            field: "",
            message: `content type "${ct}" is not one of ${r.contentTypes.join(", ")}`,
            code: "contentType",
          },
        ];
      }
      const validate = r.json.get(ct);
      if (!validate) return null;
      return validate(body) ? null : toFieldErrors(validate.errors);
    },
    checkResponseHeaders(operationId, status, headers) {
      const r = need(responses, operationId).get(status);
      if (!r) return [{ field: "", message: `status ${status} is not listed for ${operationId}`, code: "status" }];
      const errors: FieldError[] = [];
      for (const [name, h] of r.headers) {
        const value = headers[name];
        if (value === undefined) {
          if (h.required)
            errors.push({ field: `/headers/${name}`, message: `header ${name} is required`, code: "required" });
          continue;
        }
        if (!h.validate(Array.isArray(value) ? value.join(", ") : value)) {
          errors.push(...toFieldErrors(h.validate.errors, `/headers/${name}`));
        }
      }
      return errors.length ? errors : null;
    },
    compile(schema) {
      const validate = ajv.compile(schema);
      return (value) => (validate(value) ? null : toFieldErrors(validate.errors));
    },
  };
}
