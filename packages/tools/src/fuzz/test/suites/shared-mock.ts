// The one mock process the fuzz suites share (a child process per suite would cost more than the suites).
import type { Contract } from "@plumbline-kit/contract";
import type { MockProcess } from "../mock-process.ts";

export interface SharedMock {
  /** set in the entry file's beforeAll, read by the suites' hooks and tests */
  mock: MockProcess;
  contract: Contract;
}
