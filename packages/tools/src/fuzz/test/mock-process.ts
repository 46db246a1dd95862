// The mock the fuzz tests fuzz, started through test-support/mock-process.ts.
import { type MockProcess, startMockProcess as start } from "../../../../../test-support/mock-process.ts";

export { BIN, type MockProcess } from "../../../../../test-support/mock-process.ts";

/** A manual clock (exact deepcrawl states), no rate limit, one funded key. */
export const MOCK_ARGS = [
  "--clock",
  "manual",
  "--rate-limit",
  "0",
  "--key",
  "fuzz-key:1000000000",
  "--payment-test-key",
  "fuzz-payment-key",
];
export const MOCK_KEY = "fuzz-key";
/** the mock's test payment key: the model pays for calls too (issue 16) */
export const MOCK_PAYMENT_KEY = "fuzz-payment-key";

export function startMockProcess(args: string[] = MOCK_ARGS): Promise<MockProcess> {
  return start(args);
}
