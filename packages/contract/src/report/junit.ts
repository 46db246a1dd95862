// The one JUnit XML writer of every client (conformance, proxy, gate). A report is a typed record (suites of cases);
// the counts and times of a suite are derived from its cases, so they cannot disagree. Its escaper is the one of
// html.ts (forbidden characters dropped, markup escaped), re-exported here for the XML writers that import it.
// Self-contained: no import outside spec/.
import { xmlEscape } from "./html.ts";

export { xmlEscape };

/** An attribute value: as xmlEscape, and tab/LF/CR kept as character references (a parser turns raw ones into spaces). */
function attr(s: string | number): string {
  return xmlEscape(String(s)).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface JunitCase {
  name: string;
  classname: string;
  seconds?: number;
  failure?: { message: string; type?: string; text?: string };
  error?: { message: string; type?: string; text?: string };
  /** the reason of a skipped case */
  skipped?: string;
  /** what the case found, for people (system-out) */
  output?: string;
  /** where the case points to (a file and line, as GitLab and GitHub annotate them) */
  file?: string;
  line?: number;
}

export interface JunitSuite {
  name: string;
  timestamp?: string;
  /** the suite's time; the sum of its cases' when absent */
  seconds?: number;
  properties?: Array<[string, string | number]>;
  cases: JunitCase[];
}

export interface JunitReport {
  name: string;
  /** the run's time; the sum of its suites' when absent */
  seconds?: number;
  suites: JunitSuite[];
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  seconds: number;
}

function counts(cases: JunitCase[]): Counts {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error && !c.failure).length,
    skipped: cases.filter((c) => c.skipped !== undefined && !c.failure && !c.error).length,
    seconds: cases.reduce((s, c) => s + (c.seconds ?? 0), 0),
  };
}

const time = (seconds: number) => (Number.isFinite(seconds) ? seconds : 0).toFixed(3);

function outcome(tag: "failure" | "error", o: { message: string; type?: string; text?: string }): string {
  const type = o.type === undefined ? "" : ` type="${attr(o.type)}"`;
  const head = `<${tag} message="${attr(o.message)}"${type}`;
  return o.text === undefined || o.text === "" ? `${head}/>` : `${head}>${xmlEscape(o.text)}</${tag}>`;
}

function testcase(c: JunitCase): string {
  const inner: string[] = [];
  if (c.failure) inner.push(outcome("failure", c.failure));
  if (c.error) inner.push(outcome("error", c.error));
  if (c.skipped !== undefined && !c.failure && !c.error) inner.push(`<skipped message="${attr(c.skipped)}"/>`);
  if (c.output) inner.push(`<system-out>${xmlEscape(c.output)}</system-out>`);
  const where = `${c.file === undefined ? "" : ` file="${attr(c.file)}"`}${c.line === undefined ? "" : ` line="${c.line}"`}`;
  const head = `    <testcase classname="${attr(c.classname)}" name="${attr(c.name)}"${where} time="${time(c.seconds ?? 0)}"`;
  if (inner.length === 0) return `${head}/>`;
  return [`${head}>`, ...inner.map((line) => `      ${line}`), "    </testcase>"].join("\n");
}

function testsuite(s: JunitSuite): { xml: string; counts: Counts } {
  const n = counts(s.cases);
  const seconds = s.seconds ?? n.seconds;
  const stamp = s.timestamp ? ` timestamp="${attr(s.timestamp)}"` : "";
  const props = s.properties?.length
    ? [
        "    <properties>",
        ...s.properties.map(([k, v]) => `      <property name="${attr(k)}" value="${attr(v)}"/>`),
        "    </properties>",
      ]
    : [];
  const xml = [
    `  <testsuite name="${attr(s.name)}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${time(seconds)}"${stamp}>`,
    ...props,
    ...s.cases.map(testcase),
    "  </testsuite>",
  ].join("\n");
  return { xml, counts: { ...n, seconds } };
}

/** The JUnit XML file of a report: valid XML 1.0 whatever its names and messages hold. */
export function junitXml(r: JunitReport): string {
  const suites = r.suites.map(testsuite);
  const sum = (k: keyof Counts) => suites.reduce((t, s) => t + s.counts[k], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(r.name)}" tests="${sum("tests")}" failures="${sum("failures")}" errors="${sum("errors")}" skipped="${sum("skipped")}" time="${time(r.seconds ?? sum("seconds"))}">`,
    ...suites.map((s) => s.xml),
    "</testsuites>",
    "",
  ].join("\n");
}
