// Which contract operation a request belongs to: its method and path matched against the document's path
// templates, segment by segment (a `{param}` segment matches any non-empty segment). Built once per contract.
import type { Contract } from "../contract.ts";
import type { OperationSpec } from "../operations.ts";

export interface MatchedOperation {
  op: OperationSpec;
  /** path parameters by name, percent-decoded */
  params: Record<string, string>;
}

export type OperationMatcher = (method: string, path: string) => MatchedOperation | null;

export function createOperationMatcher(contract: Contract): OperationMatcher {
  const routes = contract.operations.map((op) => ({
    op,
    method: op.method.toUpperCase(),
    segments: op.path.split("/"),
  }));
  return (method, path) => {
    const segments = path.split("?")[0].split("/");
    const upper = method.toUpperCase();
    for (const r of routes) {
      if (r.method !== upper || r.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const t = r.segments[i];
        if (t.startsWith("{")) {
          if (segments[i] === "") ok = false;
          else params[t.slice(1, -1)] = safeDecode(segments[i]);
        } else ok = t === segments[i];
      }
      if (ok) return { op: r.op, params };
    }
    return null;
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The query string of a path as an object (a repeated name keeps its last value, as the service reads it). */
export function queryOf(path: string): Record<string, string> {
  const i = path.indexOf("?");
  if (i < 0) return {};
  return Object.fromEntries(new URLSearchParams(path.slice(i + 1)));
}

/** Where the zip of a deepcrawl task is downloaded (D-deepcrawl-zip): plumbline's own route, not an operation. */
export const DEEPCRAWL_ZIP_PATH = /^\/deepcrawl\/files\/[^/]+$/;
