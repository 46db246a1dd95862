// Writes the three reports of a run into one directory: conformance.json, junit.xml, report.html.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConformanceResult } from "../types.ts";
import { htmlPage } from "./html-page.ts";
import { jsonRecord } from "./json-record.ts";
import { junitXml } from "./junit-xml.ts";

export const REPORT_FILES = { json: "conformance.json", junit: "junit.xml", html: "report.html" } as const;

export async function writeReports(result: ConformanceResult, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all([
    writeFile(join(dir, REPORT_FILES.json), jsonRecord(result)),
    writeFile(join(dir, REPORT_FILES.junit), junitXml(result)),
    writeFile(join(dir, REPORT_FILES.html), htmlPage(result)),
  ]);
}
