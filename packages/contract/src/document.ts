// Reads spec/openapi.yaml, the single source of truth (issue 2). Every other part gets the contract from here.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenAPIV3_1 } from "openapi-types";
import { decodeGraph, type EncodedGraph } from "./graph-json.ts";
import { parseYaml } from "./yaml.ts";

export const SPEC_PATH = fileURLToPath(new URL("./openapi.yaml", import.meta.url));
/** The `live` version of the contract (D-live-version): the seed brought up to the service's published document. */
export const LIVE_SPEC_PATH = fileURLToPath(new URL("./live/openapi.yaml", import.meta.url));

import { CONTRACT_VERSIONS, type ContractVersion } from "./contract-versions.ts";

export { CONTRACT_VERSIONS, type ContractVersion };

/** The document of a version of the contract. */
export function contractPath(version: ContractVersion | string = "seed"): string {
  if (version === "seed") return SPEC_PATH;
  if (version === "live") return LIVE_SPEC_PATH;
  throw new Error(`unknown contract version "${version}" (known: ${CONTRACT_VERSIONS.join(", ")})`);
}

export type OpenApiDocument = OpenAPIV3_1.Document & Record<`x-${string}`, unknown>;

/** The document as written (references intact): what `/openapi.json` serves. */
export function readRawDocument(path: string = SPEC_PATH): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    // one line naming the file and the cause, not the system's raw message
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a folder, not a file" : (err as Error).message;
    throw new Error(`${path}: ${why}${code && code !== "ENOENT" && code !== "EISDIR" ? "" : ` (${code})`}`);
  }
  return parseYaml(text) as OpenApiDocument;
}

/**
 * The build's parsed copy of a document it validated (tools/build.js writes `NAME.checked.json` beside the bundled
 * `NAME.yaml`, with the YAML's SHA-256, every bound profile checked against the OpenAPI 3.1 meta-schema and its
 * schemas compiled), or undefined: no copy (the sources, a document of the user's) or one of other text (the YAML
 * edited since). Reading the YAML and validating it took ~500 ms of every command's start; this takes a few.
 */
export function readCheckedDocument(path: string): OpenApiDocument | undefined {
  return readCheckedCopy(path)?.document;
}

/**
 * The checked copy's document with `profile` applied and dereferenced, as dereferenceDocument gives it (the build
 * stores the parser's own result, shared objects and all: graph-json.ts), or undefined without one.
 */
export function checkedDereferenced(copy: CheckedDocument, profile: string): OpenApiDocument | undefined {
  const encoded = copy.dereferenced?.[profile];
  return encoded ? (decodeGraph(encoded) as OpenApiDocument) : undefined;
}

/** What the build writes beside a bundled document. */
export interface CheckedDocument {
  sha256: string;
  document: OpenApiDocument;
  dereferenced?: Record<string, EncodedGraph>;
}

/** The whole checked copy beside `path` (readCheckedDocument), or undefined. */
export function readCheckedCopy(path: string): CheckedDocument | undefined {
  let checked: CheckedDocument;
  try {
    checked = JSON.parse(readFileSync(checkedDocumentPath(path), "utf8"));
  } catch {
    return undefined;
  }
  let text: Buffer;
  try {
    text = readFileSync(path);
  } catch {
    return undefined;
  }
  return checked.sha256 === documentDigest(text) ? checked : undefined;
}

/** Where the build writes the checked copy of the document at `path`. */
export function checkedDocumentPath(path: string): string {
  return `${path.replace(/\.ya?ml$/, "")}.checked.json`;
}

/** The digest a checked copy names its YAML by. */
export function documentDigest(text: Buffer | string): string {
  return createHash("sha256").update(text).digest("hex");
}

// the OpenAPI parser (~140 ms to load) is loaded by the documents that need it: a user's, and the build's
const swaggerParser = async () => (await import("@apidevtools/swagger-parser")).default;

/** Validates the document against the OpenAPI 3.1 meta-schema; throws with the parser's message when it is not. */
export async function validateDocument(doc: OpenApiDocument): Promise<void> {
  await (await swaggerParser()).validate(structuredClone(doc) as never);
}

/** All `$ref`s resolved in place; schemas become plain JSON Schema the validators compile. */
export async function dereferenceDocument(doc: OpenApiDocument): Promise<OpenApiDocument> {
  return (await (await swaggerParser()).dereference(structuredClone(doc) as never)) as unknown as OpenApiDocument;
}
