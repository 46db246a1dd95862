import type { Annotation } from "@plumbline-kit/contract/report/github";
import type { GateResult } from "./gate-types.ts";
export declare function gateAnnotations(r: GateResult): Annotation[];
