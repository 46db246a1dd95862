// `--severity FILE`: a YAML or JSON map of rule id → level (or `off`), for a team whose clients make a rule matter
// more or less than the default: `response-enum-value-added: breaking` for SDKs with exhaustive enums,
// `request-default-changed: off`. An unknown rule id or level is an error, not a silent no-op.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { SpecChange } from "./changes.ts";
import { isRuleId, LEVELS, type Level, RULES } from "./rules.ts";

export type SeverityOverrides = Record<string, Level | "off">;

export class SeverityFileError extends Error {}

export function parseSeverity(text: string, label: string): SeverityOverrides {
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new SeverityFileError(`${label} does not parse: ${(err as Error).message.split("\n")[0]}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new SeverityFileError(`${label} must map rule ids to levels (e.g. "response-enum-value-added: breaking")`);
  }
  const out: SeverityOverrides = {};
  for (const [id, level] of Object.entries(data)) {
    if (!isRuleId(id)) {
      const words = String(id).split("-");
      const near = RULES.filter((r) => words.every((w: string) => r.id.split("-").includes(w))).map((r) => r.id);
      throw new SeverityFileError(
        `${label}: unknown rule "${id}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; \`plumbline spec diff --rules\` lists them`,
      );
    }
    if (level !== "off" && !(LEVELS as readonly unknown[]).includes(level)) {
      throw new SeverityFileError(
        `${label}: ${id}: level "${String(level)}" is not one of ${[...LEVELS, "off"].join(", ")}`,
      );
    }
    out[id] = level as Level | "off";
  }
  return out;
}

export function readSeverityFile(path: string): SeverityOverrides {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new SeverityFileError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return parseSeverity(text, path);
}

export function applySeverity(changes: SpecChange[], overrides: SeverityOverrides): SpecChange[] {
  const out: SpecChange[] = [];
  for (const c of changes) {
    const level = overrides[c.rule];
    if (level === "off") continue;
    out.push(level ? { ...c, level } : c);
  }
  return out;
}
