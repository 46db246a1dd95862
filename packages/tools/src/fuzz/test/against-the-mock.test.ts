// Everything of fuzz/ that needs a target, against one mock started through the CLI (port 0, killed after): the
// time-boxed run (issue 6 "runs against the mock in npm test"), the corpus replay, the command and its exit codes,
// and the proof that it bites. Each suite lives in its own file under suites/.

import { loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll } from "vitest";
import { MOCK_KNOWN_ISSUES } from "./mock-known-issues.ts";
import { MOCK_KEY, startMockProcess } from "./mock-process.ts";
import { againstMockSuite } from "./suites/against-mock.ts";
import { bitesSuite } from "./suites/bites.ts";
import { cliSuite } from "./suites/cli.ts";
import { replaySuite } from "./suites/replay.ts";
import type { SharedMock } from "./suites/shared-mock.ts";

const shared = {} as SharedMock;

beforeAll(async () => {
  [shared.mock, shared.contract] = await Promise.all([startMockProcess(), loadContract()]);
}, 60_000);
afterAll(() => shared.mock?.stop());

againstMockSuite(shared);
replaySuite({
  name: "the mock",
  url: () => shared.mock.url,
  contract: () => shared.contract,
  apiKey: MOCK_KEY,
  waivers: MOCK_KNOWN_ISSUES,
  everyKnownWaived: true,
});
cliSuite(shared);
bitesSuite(shared);
