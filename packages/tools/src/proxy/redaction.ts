// Secrets out of recordings and reports (HAR conventions, "Redaction"): credential headers, query parameters and
// form fields (OAuth codes, verifiers, challenges and tokens among them: spec/secrets.ts, the rule the mock's and the
// reference's logs keep too), URLs in Location headers and JSON fields named like secrets are replaced by
// "[REDACTED]", and every value redacted once is also scrubbed from whatever else it appears in (a key echoed in a
// body, a token in a URL), so a recording can be shared.
import { isSecretField, isSecretName, REDACTED, redactParameters, redactUrl } from "@plumbline-kit/contract/secrets";
import type { HeaderList } from "./exchange.ts";

export { isSecretName, REDACTED };

/** Headers whose values are credentials: the bearer key or token, Payment credentials and receipts, cookies. */
const SECRET_HEADERS = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "x-auth-token",
  "payment-receipt",
];

export interface RedactionOptions {
  /** header names recorded as sent (`--keep-header`) */
  keepHeaders?: string[];
  /** more header names to redact */
  secretHeaders?: string[];
}

export interface Redactor {
  headers(list: HeaderList, where: string, notes: string[]): HeaderList;
  /** a path (or a URL) with its secret-named query parameters redacted */
  path(path: string, where: string, notes: string[]): string;
  /** a form-encoded body with its secret-named fields redacted */
  form(text: string, where: string, notes: string[]): string;
  /** a deep copy of a JSON value with its secret-named fields redacted */
  json(value: unknown, where: string, notes: string[]): unknown;
  /** every secret value seen so far replaced in `text` */
  scrub(text: string): string;
}

// short values would scrub ordinary words out of bodies
const MIN_SCRUBBED = 8;
const MAX_KNOWN = 10_000;

export function createRedactor(options: RedactionOptions = {}): Redactor {
  const keep = new Set((options.keepHeaders ?? []).map((h) => h.toLowerCase()));
  const secretHeaders = new Set(
    [...SECRET_HEADERS, ...(options.secretHeaders ?? []).map((h) => h.toLowerCase())].filter((h) => !keep.has(h)),
  );
  const known = new Set<string>();
  let pattern: RegExp | null = null;

  function learn(value: string) {
    if (value.length < MIN_SCRUBBED || known.has(value) || known.size >= MAX_KNOWN) return;
    known.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) known.add(encoded);
    pattern = null;
  }

  function learnHeader(name: string, value: string) {
    if (name === "cookie") {
      for (const part of value.split(";")) learn(part.slice(part.indexOf("=") + 1).trim());
      return;
    }
    if (name === "set-cookie") {
      const first = value.split(";")[0];
      learn(first.slice(first.indexOf("=") + 1).trim());
      return;
    }
    // `Bearer <token>`, `Payment <credential>`: the credential is what must not leak elsewhere
    const space = value.indexOf(" ");
    learn(space > 0 && /^[A-Za-z-]+$/.test(value.slice(0, space)) ? value.slice(space + 1).trim() : value.trim());
  }

  function json(value: unknown, where: string, notes: string[], pointer = ""): unknown {
    if (Array.isArray(value)) return value.map((v, i) => json(v, where, notes, `${pointer}/${i}`));
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const at = `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      if (isSecretField(k, value as Record<string, unknown>) && (typeof v === "string" || typeof v === "number")) {
        learn(String(v));
        notes.push(`${where} ${at}`);
        out[k] = REDACTED;
      } else out[k] = json(v, where, notes, at);
    }
    return out;
  }

  function path(url: string, where: string, notes: string[]): string {
    return redactUrl(url, (name, value) => {
      learn(value);
      notes.push(`${where} query ${name}`);
    });
  }

  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  return {
    headers(list, where, notes) {
      return list.map(([k, v]) => {
        const lower = k.toLowerCase();
        if (!secretHeaders.has(lower) && !(isSecretName(lower) && !keep.has(lower))) {
          // a redirect's URL carries what the OAuth flow hands over (?code=, #access_token=)
          if (lower === "location" || lower === "content-location")
            return [k, path(v, `${where} header ${lower}`, notes)];
          return [k, v];
        }
        learnHeader(lower, v);
        notes.push(`${where} header ${lower}`);
        return [k, REDACTED];
      });
    },
    path,
    form(text, where, notes) {
      return redactParameters(text, (name, value) => {
        learn(value);
        notes.push(`${where} /${name}`);
      });
    },
    json: (value, where, notes) => json(value, where, notes),
    scrub(text) {
      if (known.size === 0) return text;
      pattern ??= new RegExp(
        [...known]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join("|"),
        "g",
      );
      return text.replace(pattern, REDACTED);
    },
  };
}
