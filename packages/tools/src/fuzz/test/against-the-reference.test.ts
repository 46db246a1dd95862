// Everything of fuzz/ that runs against the reference (issue 6 "runs against the mock … and against the
// reference"): one reference process started through the CLI on a throw-away SQLite directory, a fixture site it
// fetches (fuzz-fixture-site.ts), the time-boxed run and the corpus replay. Each suite lives under suites/.

import { loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll } from "vitest";
import { startFuzzFixtureSite } from "./fuzz-fixture-site.ts";
import { startReferenceProcess } from "./reference-process.ts";
import { againstReferenceSuite } from "./suites/against-reference.ts";
import { replayReferenceSuite } from "./suites/replay-reference.ts";
import { screenshotReferenceSuite } from "./suites/screenshot-reference.ts";
import type { SharedReference } from "./suites/shared-reference.ts";

const shared = {} as SharedReference;

beforeAll(async () => {
  [shared.reference, shared.site, shared.contract] = await Promise.all([
    startReferenceProcess(),
    startFuzzFixtureSite(),
    loadContract(),
  ]);
}, 90_000);
afterAll(async () => {
  await shared.reference?.stop();
  await shared.site?.close();
});

againstReferenceSuite(shared);
replayReferenceSuite(shared);
screenshotReferenceSuite(shared);
