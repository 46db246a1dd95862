// The reference process and the fixture site the reference suites share.
import type { Contract } from "@plumbline-kit/contract";
import type { FuzzFixtureSite } from "../fuzz-fixture-site.ts";
import type { ReferenceProcess } from "../reference-process.ts";

export interface SharedReference {
  /** set in the entry file's beforeAll, read by the suites' hooks and tests */
  reference: ReferenceProcess;
  site: FuzzFixtureSite;
  contract: Contract;
}

/** What the reference implements so far (README "The reference implementation"); the rest answers 502. */
export const IMPLEMENTED = ["crawl", "sitemap", "usage"];
