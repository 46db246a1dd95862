// Reads spec/openapi.yaml, the single source of truth (issue 2). Every other part gets the contract from here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { parse } from "yaml";

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
  return parse(text) as OpenApiDocument;
}

/** Validates the document against the OpenAPI 3.1 meta-schema; throws with the parser's message when it is not. */
export async function validateDocument(doc: OpenApiDocument): Promise<void> {
  await SwaggerParser.validate(structuredClone(doc) as never);
}

/** All `$ref`s resolved in place; schemas become plain JSON Schema the validators compile. */
export async function dereferenceDocument(doc: OpenApiDocument): Promise<OpenApiDocument> {
  return (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as OpenApiDocument;
}
