// `plumbline fuzz --replay FILE|DIR`: every corpus entry against the target, with the run's waivers. Exit 1 when
// one fails, 2 when the corpus cannot be read.
import type { RunContext } from "../properties/property-runs.ts";
import type { ReportState } from "../report/report-state.ts";
import { readCorpus } from "./corpus-entry.ts";
import { replayEntry } from "./replay-corpus.ts";

export async function replayCorpus(
  ctx: RunContext,
  path: string,
  state: ReportState,
  log: (line: string) => void,
): Promise<0 | 1 | 2> {
  const corpus = readCorpus(path);
  if (!corpus.ok) {
    state.report.error = corpus.reason;
    log(`plumbline fuzz: ${corpus.reason}`);
    return 2;
  }
  let failed = false;
  for (const { file, entry } of corpus.entries) {
    const out = await replayEntry(ctx, entry);
    state.report.replay.push({ file, ...out });
    if (!out.passed) failed = true;
    const mark = out.passed ? (out.waived ? `waived (${out.waived})` : "✓") : "✗";
    log(`${mark} ${entry.id}`);
    for (const f of out.passed && !out.waived ? [] : out.failures) log(`  [${f.check}] ${f.message}`);
  }
  log(`${corpus.entries.length} replayed, ${state.report.replay.filter((x) => !x.passed).length} failed`);
  return failed ? 1 : 0;
}
