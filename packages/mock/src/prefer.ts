// The `Prefer` header (RFC 7240) in Prism's vocabulary (`code=`, `example=`, `dynamic=`, `seed=`) plus the mock's
// own steering: `latency=` (ms), `fault=reset|hang`, `variability=max`, `fail-entries="1,3"` (batch entry indexes),
// `deepcrawl=failed`, `payment=refused|expired|replayed`, `fail-engines="github,google"` (the engines an /ask call
// finds failing: listed in its `errors`, all of them a 502). Unknown preferences are ignored, as RFC 7240 asks.

export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: number;
  latencyMs?: number;
  fault?: "reset" | "hang";
  variability?: "normal" | "max";
  failEntries?: number[];
  /** the engines an /ask call finds failing (D-ask-charging) */
  failEngines?: string[];
  deepcrawl?: "failed" | "completed";
  /** refuse the presented Payment credential as this would (D-payment-challenge) */
  payment?: "refused" | "expired" | "replayed";
}

/** Longest latency or hang the mock will hold a request for, so a test can never hang CI. */
export const MAX_LATENCY_MS = 60_000;

/** Splits on commas and semicolons outside double quotes. */
function preferenceTokens(text: string): string[] {
  return text.match(/(?:[^,;"]+|"[^"]*")+/g) ?? [];
}

export function parsePrefer(header: string | string[] | undefined): Preferences {
  const out: Preferences = {};
  if (header === undefined) return out;
  const text = Array.isArray(header) ? header.join(",") : header;
  for (const part of preferenceTokens(text)) {
    const [rawKey, ...rest] = part.split("=");
    const key = rawKey?.trim().toLowerCase();
    const value = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (!key) continue;
    const int = Number.parseInt(value, 10);
    switch (key) {
      case "code":
        if (/^\d{3}$/.test(value)) out.code = int;
        break;
      case "example":
        if (value) out.example = value;
        break;
      case "dynamic":
        out.dynamic = value === "" || value === "true";
        break;
      case "seed":
        if (Number.isSafeInteger(int)) out.seed = int;
        break;
      case "latency":
        if (Number.isSafeInteger(int) && int >= 0) out.latencyMs = Math.min(int, MAX_LATENCY_MS);
        break;
      case "fault":
        if (value === "reset" || value === "hang") out.fault = value;
        break;
      case "variability":
        if (value === "max" || value === "normal") out.variability = value;
        break;
      case "fail-entries":
        out.failEntries = value
          .split(/[\s,]+/)
          .map((v) => Number.parseInt(v, 10))
          .filter((n) => Number.isSafeInteger(n) && n >= 0);
        break;
      case "fail-engines":
        out.failEngines = value
          .split(/[\s,]+/)
          .map((v) => v.trim().toLowerCase())
          .filter((v) => v.length > 0);
        break;
      case "payment":
        if (value === "refused" || value === "expired" || value === "replayed") out.payment = value;
        break;
      case "deepcrawl":
        if (value === "failed" || value === "completed") out.deepcrawl = value;
        break;
    }
  }
  return out;
}
