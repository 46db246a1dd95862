// Issues the fuzzer flags on the reference, waived by id in the fuzz tests that run against it, like
// mock-known-issues.ts for the mock. The reference shares the platform (reference/platform/) with the mock, so the
// platform's known issues apply to both; issues of the reference's own engines would be listed here too (none
// found so far: see fuzz/README.md "Fuzzing the reference").
import type { Waiver } from "../checks/waivers.ts";
import { MOCK_KNOWN_ISSUES } from "./mock-known-issues.ts";

export const REFERENCE_KNOWN_ISSUES: Waiver[] = MOCK_KNOWN_ISSUES.filter((w) => w.id.startsWith("platform-"));
