// The corpus replayed against the reference (replay.ts), for the entries it can answer: invalid input of any
// operation (the platform validates before any engine runs) and valid input or command sequences of the operations
// it implements (the rest answer 502 until they land). Known platform issues must still reproduce there too.
import type { CorpusEntry } from "../../repro/corpus-entry.ts";
import { REFERENCE_KNOWN_ISSUES } from "../reference-known-issues.ts";
import { REFERENCE_KEY } from "../reference-process.ts";
import { replaySuite } from "./replay.ts";
import { IMPLEMENTED, type SharedReference } from "./shared-reference.ts";

/** Whether the reference can answer the entry as the contract says (see the file comment). */
export function replayableOnReference(entry: CorpusEntry): boolean {
  if (entry.case) return entry.case.violation !== null || IMPLEMENTED.includes(entry.case.operationId);
  return (entry.sequence?.commands ?? []).every(
    (c) => (c.kind === "call" && IMPLEMENTED.includes(c.operationId)) || c.kind === "usage" || c.kind === "advance",
  );
}

export function replayReferenceSuite(shared: SharedReference): void {
  replaySuite({
    name: "the reference",
    url: () => shared.reference.url,
    contract: () => shared.contract,
    apiKey: REFERENCE_KEY,
    answers: replayableOnReference,
    waivers: REFERENCE_KNOWN_ISSUES,
    everyKnownWaived: false,
  });
}
