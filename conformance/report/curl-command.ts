// A curl command reproducing a recorded request. Credentials stay environment variables ($PLUMBLINE_API_KEY),
// so a report can be shared and the command still works where the variable is set.
import type { Exchange } from "../types.ts";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlCommand(ex: Exchange): string {
  const parts = ["curl -sS -i", `-X ${ex.request.method}`, quote(ex.request.url)];
  for (const [name, value] of Object.entries(ex.request.headers)) {
    // double quotes only where a variable must expand
    parts.push(value.includes("$PLUMBLINE_") ? `-H "${name}: ${value}"` : `-H ${quote(`${name}: ${value}`)}`);
  }
  if (ex.request.body !== undefined) parts.push(`--data-raw ${quote(ex.request.body)}`);
  return parts.join(" ");
}
