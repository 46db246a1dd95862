// A curl command that reproduces one request against a target (style: "every failure comes with what reproduces
// it: the seed, the request, a curl command"). The key is left as a shell variable so reports never carry it.
import type { FuzzRequest } from "../http/http-client.ts";

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(baseUrl: string, req: FuzzRequest, keyVariable = "PLUMBLINE_API_KEY"): string {
  const parts = ["curl -sS -i", `-X ${req.method}`, quote(baseUrl.replace(/\/$/, "") + req.path)];
  parts.push(`-H "authorization: Bearer $${keyVariable}"`);
  const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  if (body !== undefined) {
    parts.push(`-H ${quote(`content-type: ${req.contentType ?? "application/json"}`)}`);
    parts.push(`--data-raw ${quote(body)}`);
  }
  return parts.join(" ");
}
