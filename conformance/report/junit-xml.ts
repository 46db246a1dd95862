// JUnit XML for CI: one testcase per check, grouped in one suite per family (the id's first word). A warning is a
// passing testcase that says why in system-out; JUnit has no warning state.
import { checkCount, SKIP_KINDS, type SkipTally, skipKindOf } from "../skip-reasons.ts";
import { basisLabel, type CheckResult, type ConformanceResult } from "../types.ts";

// XML 1.0 allows tab, LF, CR and U+0020 upwards (surrogates and U+FFFE/U+FFFF excepted): a target's bytes in a
// failure message must not make the whole report unparseable
const xmlChar = (ch: string) => {
  const c = ch.codePointAt(0) ?? 0;
  return c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c > 0xffff;
};

export const xmlEscape = (s: string) =>
  [...s]
    .filter(xmlChar)
    .join("")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

const family = (id: string) => id.split("-")[0];

function testcase(c: CheckResult): string {
  const head = `    <testcase classname="conformance.${family(c.id)}" name="${xmlEscape(c.id)}" time="${(c.durationMs / 1000).toFixed(3)}">`;
  const about = `${c.title}\nsection: ${c.section}\nbasis: ${basisLabel(c.basis)}\nseverity: ${c.severity}`;
  const lines = c.failures.map(
    (f) =>
      `- ${f.message}${f.expected ? ` (expected ${f.expected}, got ${f.actual ?? "?"})` : ""} [exchanges ${f.exchanges.join(", ")}]`,
  );
  const body: string[] = [];
  if (c.status === "failed")
    body.push(
      `      <failure message="${xmlEscape(c.failures[0]?.message ?? "failed")}" type="${c.severity}">${xmlEscape(lines.join("\n"))}</failure>`,
    );
  if (c.status === "skipped")
    body.push(`      <skipped message="${xmlEscape(`[${skipKindOf(c)}] ${c.reason ?? "skipped"}`)}"/>`);
  const out = [about, c.status === "warning" ? `WARNING: ${c.reason}\n${lines.join("\n")}` : "", ...c.notes]
    .filter(Boolean)
    .join("\n");
  body.push(`      <system-out>${xmlEscape(out)}</system-out>`);
  return [head, ...body, "    </testcase>"].join("\n");
}

/**
 * One testcase per kind of skip (issue 27: skips cannot hide): a missing precondition not allowed is a failure, the
 * others pass and say in system-out how many checks were skipped and why; the suite's properties count them.
 */
function skipSuite(r: ConformanceResult, skips: SkipTally[]): string {
  if (skips.length === 0) return "";
  const failing = skips.filter((t) => !t.allowed).length;
  const props = skips.map((t) => `      <property name="skipped.${t.kind}" value="${t.count}"/>`);
  const cases = skips.map((t) => {
    const name = `skipped: ${t.kind} (${checkCount(t)})`;
    const about = `${SKIP_KINDS[t.kind].label}\n${t.reason}\nchecks: ${t.checks.join(", ")}`;
    const verdict = !t.precondition
      ? ""
      : t.allowed
        ? `\nmissing precondition, allowed: ${t.allowedBy}`
        : `\nmissing precondition: the run fails; --allow-skipped ${t.kind} accepts it`;
    const failure = t.allowed
      ? ""
      : `\n      <failure message="${xmlEscape(`precondition not met: ${t.kind}: ${t.reason}`)}" type="precondition"/>`;
    return `    <testcase classname="conformance.skips" name="${xmlEscape(name)}" time="0">${failure}\n      <system-out>${xmlEscape(about + verdict)}</system-out>\n    </testcase>`;
  });
  return [
    `  <testsuite name="conformance.skips" tests="${skips.length}" failures="${failing}" errors="0" skipped="0" time="0" timestamp="${r.startedAt}">`,
    "    <properties>",
    ...props,
    "    </properties>",
    ...cases,
    "  </testsuite>",
  ].join("\n");
}

export function junitXml(r: ConformanceResult): string {
  const families = [...new Set(r.checks.map((c) => family(c.id)))];
  const suites = families.map((f) => {
    const cs = r.checks.filter((c) => family(c.id) === f);
    const time = cs.reduce((s, c) => s + c.durationMs, 0) / 1000;
    const count = (st: string) => cs.filter((c) => c.status === st).length;
    return [
      `  <testsuite name="conformance.${f}" tests="${cs.length}" failures="${count("failed")}" errors="0" skipped="${count("skipped")}" time="${time.toFixed(3)}" timestamp="${r.startedAt}">`,
      ...cs.map(testcase),
      "  </testsuite>",
    ].join("\n");
  });
  const s = r.summary;
  const skips = r.skips ?? [];
  const unmetCount = skips.filter((t) => !t.allowed).length;
  const skipped = skipSuite(r, skips);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plumbline conformance (${xmlEscape(r.target)}, ${r.profile})" tests="${s.total + skips.length}" failures="${s.failed + unmetCount}" errors="0" skipped="${s.skipped}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    ...(skipped ? [skipped] : []),
    "</testsuites>",
    "",
  ].join("\n");
}
