import type { Annotation } from "@plumbline-kit/contract/report/github";
import type { ConformanceResult } from "../types.ts";
export declare function conformanceAnnotations(r: ConformanceResult): Annotation[];
