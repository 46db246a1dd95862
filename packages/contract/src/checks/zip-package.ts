// Reading a deepcrawl package as a client does (D-deepcrawl-zip): a zip, manifest.json at its root validating
// against components.schemas.DeepcrawlManifest, and every listed page document present with its byte size.
import { strFromU8, unzipSync } from "fflate";
import type { Contract } from "../contract.ts";
import type { JsonSchema } from "../json-schema.ts";

export interface ManifestPage {
  url: string;
  path: string | null;
  status: number;
  bytes: number;
}
export interface Manifest {
  taskId: string;
  url: string;
  pages: ManifestPage[];
}

export type ZipReading =
  | {
      ok: true;
      manifest: Manifest;
      /** path → text of every document the manifest lists */
      documents: Map<string, string>;
      /** every entry name of the zip */
      entries: string[];
    }
  | { ok: false; problems: string[] };

export function readPackage(contract: Contract, zip: Buffer): ZipReading {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(zip));
  } catch (err) {
    return { ok: false, problems: [`not a valid zip: ${err instanceof Error ? err.message : String(err)}`] };
  }
  const raw = files["manifest.json"];
  if (!raw) return { ok: false, problems: [`no manifest.json among ${Object.keys(files).length} entries`] };
  let manifest: unknown;
  try {
    manifest = JSON.parse(strFromU8(raw));
  } catch {
    return { ok: false, problems: ["manifest.json is not JSON"] };
  }
  const schema = contract.document.components?.schemas?.DeepcrawlManifest as JsonSchema;
  const errors = contract.validators.compile(schema)(manifest);
  if (errors) return { ok: false, problems: errors.map((e) => `manifest.json${e.field}: ${e.message} (${e.code})`) };
  const m = manifest as Manifest;
  const documents = new Map<string, string>();
  const problems: string[] = [];
  for (const page of m.pages) {
    if (page.path === null) continue;
    const file = files[page.path];
    if (!file) problems.push(`manifest lists ${page.path}, absent from the zip`);
    else if (file.length !== page.bytes)
      problems.push(`${page.path}: ${file.length} bytes, the manifest says ${page.bytes}`);
    else documents.set(page.path, strFromU8(file));
  }
  return problems.length ? { ok: false, problems } : { ok: true, manifest: m, documents, entries: Object.keys(files) };
}
