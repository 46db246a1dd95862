// The corpus replayed forever after (issue 6 "Reproduction"), against the mock and against the reference: every
// entry of fuzz/corpus/ the target can answer must pass; every entry of fuzz/corpus/known/ waived on the target (a
// known issue, waived by id in the fuzz tests) must still fail, so the day it is fixed this test says to drop the
// waiver and move the entry up into the corpus.
import { fileURLToPath } from "node:url";
import type { Contract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Waiver } from "../../checks/waivers.ts";
import { createHttpClient, type HttpClient } from "../../http/http-client.ts";
import { probeTarget } from "../../http/target-probe.ts";
import { type CorpusEntry, readCorpus } from "../../repro/corpus-entry.ts";
import { type ReplayContext, replayEntry } from "../../repro/replay-corpus.ts";

const CORPUS = fileURLToPath(new URL("../../corpus", import.meta.url));
const KNOWN = fileURLToPath(new URL("../../corpus/known", import.meta.url));

export interface ReplayTarget {
  /** "the mock", "the reference" */
  name: string;
  /** read in beforeAll: the target is started by the entry file's own beforeAll */
  url(): string;
  contract(): Contract;
  apiKey: string;
  /** the entries this target can answer as the contract says (default: all) */
  answers?: (entry: CorpusEntry) => boolean;
  waivers: Waiver[];
  /** every known entry must have its waiver on this target (the mock); else entries without one are not replayed */
  everyKnownWaived: boolean;
}

export function replaySuite(target: ReplayTarget): void {
  let client: HttpClient;
  let ctx: ReplayContext;
  const answers = target.answers ?? (() => true);

  describe(`corpus replay against ${target.name}`, () => {
    beforeAll(async () => {
      client = createHttpClient({ baseUrl: target.url(), apiKey: target.apiKey, timeoutMs: 10_000 });
      const probe = await probeTarget(client);
      if (!probe.ok) throw new Error(probe.reason);
      ctx = { contract: target.contract(), client, target: probe.target, apiKey: target.apiKey };
    });
    afterAll(() => client?.close());

    const corpus = readCorpus(CORPUS);
    const entries = (corpus.ok ? corpus.entries : []).filter((e) => answers(e.entry));

    it("replays a corpus that is never empty and holds every kind of entry", () => {
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
    for (const { file, entry } of (known.ok ? known.entries : []).filter((e) => answers(e.entry))) {
      const waiver = target.waivers.find((w) => w.id === entry.id);
      if (!waiver && !target.everyKnownWaived) continue;
      it(`known issue ${entry.id} still reproduces (else remove its waiver and move ${entry.id}.json up)`, async () => {
        expect(waiver, `no waiver with id ${entry.id}`).toBeDefined();
        const out = await replayEntry(ctx, entry);
        expect(out.failures.length, file).toBeGreaterThan(0);
        // the failures are the waived ones, and the waiver recognises its own example
        for (const f of out.failures) expect(waiver?.checks).toContain(f.check);
        expect(entry.case, "a known issue is one case").toBeDefined();
        expect(waiver?.applies(entry.case as NonNullable<typeof entry.case>)).toBe(true);
      });
    }
  });
}
