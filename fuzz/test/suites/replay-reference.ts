// The corpus replayed against the reference, for the entries it can answer: invalid input of any operation (the
// platform validates before any engine runs) and valid input or command sequences of the operations it implements
// (the rest answer 502 until they land). Known platform issues must still reproduce there too.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type HttpClient } from "../../http/http-client.ts";
import { probeTarget } from "../../http/target-probe.ts";
import { type CorpusEntry, readCorpus } from "../../repro/corpus-entry.ts";
import { type ReplayContext, replayEntry } from "../../repro/replay-corpus.ts";
import { REFERENCE_KNOWN_ISSUES } from "../reference-known-issues.ts";
import { REFERENCE_KEY } from "../reference-process.ts";
import { IMPLEMENTED, type SharedReference } from "./shared-reference.ts";

const CORPUS = fileURLToPath(new URL("../../corpus", import.meta.url));
const KNOWN = fileURLToPath(new URL("../../corpus/known", import.meta.url));

/** Whether the reference can answer the entry as the contract says (see the file comment). */
export function replayableOnReference(entry: CorpusEntry): boolean {
  if (entry.case) return entry.case.violation !== null || IMPLEMENTED.includes(entry.case.operationId);
  return (entry.sequence?.commands ?? []).every(
    (c) => (c.kind === "call" && IMPLEMENTED.includes(c.operationId)) || c.kind === "usage" || c.kind === "advance",
  );
}

export function replayReferenceSuite(shared: SharedReference): void {
  let client: HttpClient;
  let ctx: ReplayContext;

  describe("corpus replay against the reference", () => {
    beforeAll(async () => {
      client = createHttpClient({ baseUrl: shared.reference.url, apiKey: REFERENCE_KEY, timeoutMs: 10_000 });
      const probe = await probeTarget(client);
      if (!probe.ok) throw new Error(probe.reason);
      ctx = { contract: shared.contract, client, target: probe.target, apiKey: REFERENCE_KEY };
    });
    afterAll(() => client?.close());

    const corpus = readCorpus(CORPUS);
    const entries = (corpus.ok ? corpus.entries : []).filter((e) => replayableOnReference(e.entry));

    it("replays entries of every property: invalid input, crawl and sitemap, and a command sequence", () => {
      const kinds = new Set(entries.map((e) => e.entry.property));
      expect([...kinds].sort()).toEqual(["invalid-input", "stateful-model", "valid-input"]);
    });

    for (const { file, entry } of entries) {
      it(`replays ${entry.id}`, async () => {
        const out = await replayEntry(ctx, entry);
        expect(out.failures, file).toEqual([]);
      });
    }

    const known = readCorpus(KNOWN);
    for (const { file, entry } of (known.ok ? known.entries : []).filter((e) => replayableOnReference(e.entry))) {
      const waiver = REFERENCE_KNOWN_ISSUES.find((w) => w.id === entry.id);
      if (!waiver) continue;
      it(`known issue ${entry.id} still reproduces on the reference`, async () => {
        const out = await replayEntry(ctx, entry);
        expect(out.failures.length, file).toBeGreaterThan(0);
        for (const f of out.failures) expect(waiver.checks).toContain(f.check);
      });
    }
  });
}
