import type { Annotation } from "@plumbline-kit/contract/report/github";
import type { ProxyReport } from "./violation-report.ts";
export declare function proxyAnnotations(report: ProxyReport, failOn: "violation" | "response" | "never"): Annotation[];
