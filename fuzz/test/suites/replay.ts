// The corpus replayed against the mock, forever after (issue 6 "Reproduction"): every entry of fuzz/corpus/ must
// pass; every entry of fuzz/corpus/known/ (a known issue of the mock, waived by id in the fuzz tests) must still
// fail, so the day it is fixed this test says to drop the waiver and move the entry up into the corpus.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type HttpClient } from "../../http/http-client.ts";
import { probeTarget, type TargetInfo } from "../../http/target-probe.ts";
import { readCorpus } from "../../repro/corpus-entry.ts";
import { type ReplayContext, replayEntry } from "../../repro/replay-corpus.ts";
import { MOCK_KNOWN_ISSUES } from "../mock-known-issues.ts";
import { MOCK_KEY } from "../mock-process.ts";
import type { SharedMock } from "./shared-mock.ts";

const CORPUS = fileURLToPath(new URL("../../corpus", import.meta.url));
const KNOWN = fileURLToPath(new URL("../../corpus/known", import.meta.url));

export function replaySuite(shared: SharedMock): void {
  let client: HttpClient;
  let ctx: ReplayContext;

  describe("corpus replay against the mock", () => {
    beforeAll(async () => {
      client = createHttpClient({ baseUrl: shared.mock.url, apiKey: MOCK_KEY, timeoutMs: 10_000 });
      const probe = await probeTarget(client);
      if (!probe.ok) throw new Error(probe.reason);
      ctx = { contract: shared.contract, client, target: probe.target as TargetInfo, apiKey: MOCK_KEY };
    });
    afterAll(() => client?.close());

    const corpus = readCorpus(CORPUS);
    const entries = corpus.ok ? corpus.entries : [];

    it("reads a corpus that is never empty and holds every kind of entry", () => {
      expect(corpus.ok).toBe(true);
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
    for (const { file, entry } of known.ok ? known.entries : []) {
      it(`known issue ${entry.id} still reproduces (else remove its waiver and move ${entry.id}.json up)`, async () => {
        const waiver = MOCK_KNOWN_ISSUES.find((w) => w.id === entry.id);
        expect(waiver, `no waiver with id ${entry.id}`).toBeDefined();
        const out = await replayEntry(ctx, entry);
        expect(out.failures.length, file).toBeGreaterThan(0);
        // the failures are the waived ones, and the waiver recognises its own example
        for (const f of out.failures) expect(waiver?.checks).toContain(f.check);
        expect(waiver?.applies(entry.case as NonNullable<typeof entry.case>)).toBe(true);
      });
    }
  });
}
