// The one curl renderer of every client (conformance reports, fuzz failure records, proxy reports): a shell command
// reproducing a request. Credentials never appear: they stay shell variables ($PLUMBLINE_API_KEY), so a report can
// be shared and the command still works where the variable is set. Self-contained: no import outside spec/.
//
// Redaction is the union of what the three renderers did, the safest of each:
// - a secret value the caller names (an API key, URL-encoded too) becomes its variable wherever it appears: in the
//   URL (a key sent as a query parameter), a header or the body (the conformance suite's);
// - an `authorization` header whose credential was redacted ([REDACTED]) becomes `Bearer $PLUMBLINE_API_KEY` when
//   its scheme was Bearer, and stays [REDACTED] otherwise (the proxy's);
// - a variable is expanded by the shell only where the rest of the word holds nothing the shell would interpret;
//   everything else is single-quoted, so no recorded byte (a target's, a fuzzer's) can run as a command.

/** The variables a command may reference; the shell expands them, nothing else. */
export const CREDENTIAL_VARIABLES = ["PLUMBLINE_API_KEY", "PLUMBLINE_BROKE_API_KEY"] as const;
const REDACTED = "[REDACTED]";
/** Headers curl writes itself (or that would break the replay): never rendered. */
const SKIPPED = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "accept-encoding"]);

export interface CurlRequest {
  method: string;
  /** the absolute URL */
  url: string;
  headers?: Record<string, string> | Iterable<readonly [string, string]>;
  /** the body as text, or a binary body the report holds elsewhere (`--data-binary @file`) */
  body?: string | { binary: true; file?: string; note?: string };
  /** secret values (each with the variable that stands for it) to replace wherever they appear */
  secrets?: ReadonlyArray<readonly [secret: string, variable: string]>;
}

const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const VARIABLE = new RegExp(`\\$(${CREDENTIAL_VARIABLES.join("|")})\\b`, "g");

/**
 * One shell word for `s`: double-quoted when it references a credential variable and holds nothing else the shell
 * reads inside double quotes ($, `, \, ", !), else single-quoted pieces with the variables spliced between them.
 */
export function shellWord(s: string): string {
  const pieces = s.split(VARIABLE);
  if (pieces.length === 1) return single(s);
  const literal = pieces.filter((_, i) => i % 2 === 0).join("");
  if (!/[$`\\"!]/.test(literal)) return `"${s}"`;
  return pieces.map((p, i) => (i % 2 === 1 ? `"$${p}"` : p === "" ? "" : single(p))).join("");
}

function replaceSecrets(text: string, secrets: CurlRequest["secrets"]): string {
  let out = text;
  for (const [secret, variable] of secrets ?? []) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(`$${variable}`);
  }
  return out;
}

function headerList(h: CurlRequest["headers"]): Array<readonly [string, string]> {
  if (!h) return [];
  return Symbol.iterator in h ? [...(h as Iterable<readonly [string, string]>)] : Object.entries(h);
}

export function curlCommand(req: CurlRequest): string {
  const hide = (t: string) => replaceSecrets(t, req.secrets);
  const method = /^[A-Za-z-]+$/.test(req.method) ? req.method : single(req.method);
  const parts = ["curl -sS -i", `-X ${method}`, shellWord(hide(req.url))];
  for (const [name, raw] of headerList(req.headers)) {
    const lower = name.toLowerCase();
    if (SKIPPED.has(lower)) continue;
    let value = hide(raw);
    if (lower === "authorization" && value.includes(REDACTED)) {
      // only the scheme of the credential is read, never the credential
      const scheme = /^([A-Za-z][\w-]*)\s/.exec(value)?.[1];
      value = /^bearer$/i.test(scheme ?? "")
        ? "Bearer $PLUMBLINE_API_KEY"
        : scheme
          ? `${scheme} ${REDACTED}`
          : REDACTED;
    }
    parts.push(`-H ${shellWord(`${lower === "authorization" ? lower : name}: ${value}`)}`);
  }
  if (typeof req.body === "string") parts.push(`--data-raw ${shellWord(hide(req.body))}`);
  else if (req.body)
    parts.push(`--data-binary @${req.body.file ?? "body.bin"}${req.body.note ? `  # ${req.body.note}` : ""}`);
  return parts.join(" ");
}
