// loadContract(): the document read, validated and dereferenced once per profile, with everything derived from
// it. Mock, reference, conformance, fuzz and load all start here (style: "the spec is the only source").

import { type Decision, readDecisions } from "./decisions.ts";
import {
  type ContractVersion,
  checkedDereferenced,
  contractPath,
  dereferenceDocument,
  type OpenApiDocument,
  readCheckedCopy,
  readRawDocument,
  validateDocument,
} from "./document.ts";
import { indexOperations, type OperationSpec } from "./operations.ts";
import { createPriceTable, type PriceTable } from "./price-table.ts";
import { applyProfile, type ProfileName } from "./profiles.ts";
import { type ContractValidators, createValidators } from "./validators.ts";

export interface RateLimitPolicy {
  windowSeconds: number;
  perAccount: number;
  perOperation: Record<string, number>;
  retryAfterSeconds: number;
}

export interface Contract {
  profile: string;
  /** which version of the contract this is: `seed` (the default), `live`, or the `x-contract-version` of another
   * document (D-live-version) */
  contractVersion: string;
  /** the document as written, with the profile applied: what `/openapi.json` serves */
  raw: OpenApiDocument;
  /** the same, every `$ref` resolved */
  document: OpenApiDocument;
  version: string;
  operations: OperationSpec[];
  /** the contract's own operations, without the discovery documents */
  contractOperations: OperationSpec[];
  operation(operationId: string): OperationSpec;
  /** the operation, or undefined when this document has none by that id (another version of the contract) */
  findOperation(operationId: string): OperationSpec | undefined;
  validators: ContractValidators;
  prices: PriceTable;
  decisions: Decision[];
  rateLimits: RateLimitPolicy;
}

export interface LoadOptions {
  profile?: ProfileName | string;
  /** another document (tests use deliberately broken copies); defaults to the document of `version` */
  path?: string;
  /** the version of the contract (`--contract`): `seed` (the default) or `live` (D-live-version); `path` wins */
  version?: ContractVersion | string;
}

const cache = new Map<string, Promise<Contract>>();

export function loadContract(options: LoadOptions = {}): Promise<Contract> {
  const profile = options.profile ?? "primary";
  const path = options.path ?? contractPath(options.version ?? "seed");
  const key = `${path}\u0000${profile}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = build(path, profile);
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

async function build(path: string, profile: string): Promise<Contract> {
  // the bundled documents come checked by the build (every profile validated); any other is validated here
  const checked = readCheckedCopy(path);
  const raw = applyProfile(checked?.document ?? readRawDocument(path), profile);
  if (!checked) await validateDocument(raw);
  // and dereferenced by the build too (the OpenAPI parser then never loads)
  const document = (checked && checkedDereferenced(checked, profile)) ?? (await dereferenceDocument(raw));
  const operations = indexOperations(document);
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  return {
    profile,
    contractVersion: String(raw["x-contract-version"] ?? "seed"),
    raw,
    document,
    version: document.info.version,
    operations,
    contractOperations: operations.filter((o) => !o.discovery),
    operation(id) {
      const op = byId.get(id);
      if (!op) throw new Error(`no operation "${id}" in the contract`);
      return op;
    },
    findOperation: (id) => byId.get(id),
    // a bundled document's schemas compile (the build compiled them): each is compiled when first used
    validators: createValidators(operations, undefined, { compile: checked ? "on-use" : "eager" }),
    prices: createPriceTable(operations),
    decisions: readDecisions(raw),
    rateLimits: readRateLimits(raw),
  };
}

/** The rate-limit policy of a document (`x-rate-limits`, D-rate-limits), its defaults filled in. */
export function readRateLimits(doc: OpenApiDocument): RateLimitPolicy {
  const rl = (doc["x-rate-limits"] ?? {}) as Record<string, unknown>;
  return {
    windowSeconds: Number(rl.window_seconds ?? 60),
    perAccount: Number(rl.per_account ?? 200),
    perOperation: (rl.per_operation ?? {}) as Record<string, number>,
    retryAfterSeconds: Number(rl.retry_after_seconds ?? 60),
  };
}
