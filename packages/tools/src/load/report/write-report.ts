// Writes a run's reports into one directory (default ./reports/load/<timestamp>/ under the directory the command
// runs in, never inside the installed package): load.json with every figure, report.html to look at.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadReport } from "../types.ts";
import { htmlReport } from "./report-html.ts";

export const REPORT_FILES = { json: "load.json", html: "report.html" } as const;

export function defaultReportDir(at = new Date(), suffix = ""): string {
  return join(process.cwd(), "reports", "load", at.toISOString().replace(/[:.]/g, "-") + suffix);
}

export function writeLoadReport(report: LoadReport, dir: string): { json: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, REPORT_FILES.json);
  const html = join(dir, REPORT_FILES.html);
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(html, htmlReport(report));
  return { json, html };
}
