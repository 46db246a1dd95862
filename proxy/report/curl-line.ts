// A curl command reproducing a recorded request against the upstream, from its redacted view: a redacted bearer
// credential becomes `$PLUMBLINE_API_KEY`, so the line works where that variable is set and leaks nothing.
import type { Exchange } from "../exchange.ts";
import { headerValue } from "../hop-headers.ts";
import type { RedactedView } from "../redacted-view.ts";
import { REDACTED } from "../redaction.ts";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const SKIPPED = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "accept-encoding"]);

export function curlLine(view: RedactedView, ex: Exchange): string {
  const parts = ["curl -sS -i", `-X ${view.method}`, quote(view.url)];
  for (const [name, value] of view.requestHeaders) {
    const lower = name.toLowerCase();
    if (SKIPPED.has(lower)) continue;
    if (lower === "authorization" && value === REDACTED) {
      // only the scheme of the credential sent is read, never the credential
      const scheme = (headerValue(ex.request.headers, "authorization") ?? "").split(" ")[0];
      parts.push(
        /^bearer$/i.test(scheme) ? `-H "authorization: Bearer $PLUMBLINE_API_KEY"` : `-H ${quote(`${name}: ${value}`)}`,
      );
      continue;
    }
    parts.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (view.requestBody) {
    if (view.requestBody.encoding === "base64") parts.push(`--data-binary @body.bin  # base64 in the report`);
    else parts.push(`--data-raw ${quote(view.requestBody.text)}`);
  }
  return parts.join(" ");
}
