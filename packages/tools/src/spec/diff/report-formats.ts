// The outputs of `spec diff`, each rendered from the typed result: text for people, JSON for tools, JUnit (one test
// case per change) for CI dashboards, Markdown for pull-request comments, GitHub workflow commands for annotations
// on REVISION's lines.
import { type AnnotationLevel, githubAnnotation } from "@plumbline-kit/contract/report/github";
import { type JunitCase, junitXml } from "@plumbline-kit/contract/report/junit";
import type { SpecChange } from "./changes.ts";
import type { DiffResult, FailOn } from "./diff-specs.ts";
import { LEVEL_RANK, type Level, RULES } from "./rules.ts";

export const FORMATS = ["text", "json", "junit", "markdown", "github"] as const;
export type DiffFormat = (typeof FORMATS)[number];

const LABEL: Record<Level, string> = {
  breaking: "breaking",
  "potentially-breaking": "potentially breaking",
  "non-breaking": "non-breaking",
};

const apartCount = (r: DiffResult) => r.undescribed.reduce((n, g) => n + g.changes.length, 0);

function summary(r: DiffResult): string {
  const total = r.changes.length;
  const apart = apartCount(r);
  const aside = apart > 0 ? `; ${apart} not described by the revision, set apart` : "";
  if (total === 0) return `no changes between ${r.base} and ${r.revision}${aside}`;
  const parts = (Object.keys(r.counts) as Level[]).map((l) => `${r.counts[l]} ${LABEL[l]}`);
  return `${total} change${total === 1 ? "" : "s"} from ${r.base} to ${r.revision}: ${parts.join(", ")}${aside}`;
}

/** The group of what REVISION does not describe: a heading and one line per kind (the changes are in the JSON). */
function undescribedLines(r: DiffResult, bullet: string): string[] {
  if (r.undescribed.length === 0) return [];
  const apart = apartCount(r);
  const heading =
    apart > 0
      ? `not described by the revision (${apart} set apart, counted in no level; --undescribed removed counts them):`
      : "not described by the revision:";
  return [heading, ...r.undescribed.map((g) => `${bullet}${g.subject}: ${g.summary}`)];
}

const ops = (c: SpecChange) => (c.operations.length ? c.operations.join(", ") : "(document)");
const where = (c: SpecChange) =>
  c.revision ? `${c.revision.pointer || "/"} (line ${c.revision.line})` : `${c.base?.pointer} in base`;

function text(r: DiffResult): string {
  const lines = r.changes.map(
    (c) => `${LABEL[c.level].padEnd(20)}  ${c.rule}  ${ops(c)}\n    ${c.message}\n    at ${where(c)}`,
  );
  return [...lines, ...undescribedLines(r, "  "), summary(r)].join("\n");
}

const failing = (c: SpecChange, failOn: FailOn | undefined) =>
  failOn !== undefined &&
  LEVEL_RANK[c.level] <= (failOn === "breaking" ? LEVEL_RANK.breaking : LEVEL_RANK["potentially-breaking"]);

function junit(r: DiffResult, failOn: FailOn | undefined): string {
  const cases = r.changes.map((c): JunitCase => {
    const body = `${c.message}\nbase: ${c.base?.pointer ?? "-"}\nrevision: ${c.revision ? `${c.revision.pointer} (line ${c.revision.line})` : "-"}`;
    return {
      classname: `spec-diff.${c.level}`,
      name: `${c.rule}: ${ops(c)}: ${c.message}`,
      file: r.revisionFile,
      line: c.revision?.line ?? 0,
      ...(failing(c, failOn)
        ? { failure: { type: c.level, message: c.message, text: body } }
        : { output: `${c.level}: ${body}` }),
    };
  });
  for (const g of r.undescribed) {
    cases.push({
      classname: "spec-diff.not-described",
      name: `not described by the revision: ${g.subject}`,
      file: r.revisionFile,
      line: 0,
      output: `${g.summary}${g.changes.map((c) => `\n${c.rule}: ${ops(c)}: ${c.message}`).join("")}`,
    });
  }
  return junitXml({ name: "plumbline spec diff", suites: [{ name: `${r.base} → ${r.revision}`, cases }] }).replace(
    /\n$/,
    "",
  );
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function markdown(r: DiffResult): string {
  const lines = [`**${summary(r)}**`];
  if (r.changes.length > 0) {
    lines.push("", "| level | rule | operations | change | revision |", "|---|---|---|---|---|");
    for (const c of r.changes) {
      const at = c.revision ? `\`${c.revision.pointer || "/"}\` (line ${c.revision.line})` : "";
      lines.push(`| ${LABEL[c.level]} | \`${c.rule}\` | ${cell(ops(c))} | ${cell(c.message)} | ${at} |`);
    }
  }
  const apart = undescribedLines(r, "- ");
  if (apart.length > 0) lines.push("", `**${apart[0].replace(/:$/, "")}**`, "", ...apart.slice(1));
  return lines.join("\n");
}

const COMMAND: Record<Level, AnnotationLevel> = {
  breaking: "error",
  "potentially-breaking": "warning",
  "non-breaking": "notice",
};

function github(r: DiffResult): string {
  const lines = r.changes.map((c) =>
    githubAnnotation({
      level: COMMAND[c.level],
      file: r.revisionFile,
      line: c.revision?.line,
      title: `${c.rule} (${LABEL[c.level]})`,
      message: `${ops(c)}: ${c.message}`,
    }),
  );
  const apart = r.undescribed.map((g) =>
    githubAnnotation({
      level: "notice",
      file: r.revisionFile,
      title: `not described by the revision: ${g.subject}`,
      message: g.summary,
    }),
  );
  return [...lines, ...apart, summary(r)].join("\n");
}

export function renderDiff(r: DiffResult, format: DiffFormat, failOn?: FailOn): string {
  switch (format) {
    case "json":
      return JSON.stringify(r, null, 2);
    case "junit":
      return junit(r, failOn);
    case "markdown":
      return markdown(r);
    case "github":
      return github(r);
    default:
      return text(r);
  }
}

/** The rule list (`--rules`): text, JSON or the Markdown table docs/spec-diff.md carries. */
export function renderRules(format: DiffFormat): string {
  if (format === "json") return JSON.stringify(RULES, null, 2);
  if (format === "markdown") {
    return [
      "| rule | level | group | detects |",
      "|---|---|---|---|",
      ...RULES.map((r) => `| \`${r.id}\` | ${LABEL[r.level]} | ${r.group} | ${cell(r.summary)} |`),
    ].join("\n");
  }
  const width = Math.max(...RULES.map((r) => r.id.length));
  return RULES.map((r) => `${r.id.padEnd(width)}  ${LABEL[r.level].padEnd(20)}  ${r.summary}`).join("\n");
}
