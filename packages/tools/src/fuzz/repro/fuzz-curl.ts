// The curl command of a fuzzer's request, by the shared renderer: the key stays $PLUMBLINE_API_KEY, and a
// credential of another scheme the request carried (Authorization: Payment …) shows its scheme only.
import { curlCommand } from "@plumbline-kit/contract/report/curl";
import type { FuzzRequest } from "../http/http-client.ts";

export function fuzzCurl(baseUrl: string, req: FuzzRequest): string {
  const headers: Record<string, string> = {};
  // a request carrying its own credential (Authorization: Payment …, sent with no key) shows that one (redacted), not the key
  const own = Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === "authorization");
  if (!own) headers.authorization = "Bearer $PLUMBLINE_API_KEY";
  const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  if (body !== undefined) headers["content-type"] = req.contentType ?? "application/json";
  for (const [name, value] of Object.entries(req.headers ?? {}))
    headers[name] = name.toLowerCase() === "authorization" ? `${value.split(" ")[0]} [REDACTED]` : value;
  return curlCommand({ method: req.method, url: baseUrl.replace(/\/$/, "") + req.path, headers, body });
}
