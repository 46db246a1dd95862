// Terminal states stay terminal (interface-spec "States and transitions": polling is safe to repeat; completed then
// tells where the packaged result is; D-deepcrawl-states: completed and failed are ends). A finished task is polled
// a few more times: every answer reports the same state and, once completed, a zipUrl serving the same package (a
// signed link may be re-signed between polls, so the bytes or the manifest are compared, not the URL).
import { describe, failure, json, status } from "../check-helpers.ts";
import { deepcrawlProbe } from "../probes/deepcrawl-run.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";
import { readPackage } from "../zip-package.ts";
import { NOT_STARTED, startedRun } from "./deepcrawl.ts";

const REPOLLS = 3;

const stays: CheckDefinition = {
  id: "deepcrawl-terminal-stays",
  title: "A finished task (completed or failed) keeps its state on every later poll, and its zipUrl the same package",
  severity: "major",
  section: "States and transitions",
  basis: { kind: "decision", decision: "D-deepcrawl-states" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const run = await startedRun(ctx);
    if (!run) return NOT_STARTED;
    if (!run.terminal) return { failures: [], skip: "the task did not finish (see deepcrawl-completes)" };
    const first = run.zip && status(run.zip) === 200 ? run.zip : undefined;
    const firstPackage = first ? readPackage(ctx.contract, first.raw ?? Buffer.alloc(0)) : undefined;
    const failures: Failure[] = [];
    const path = `/deepcrawl/status/${encodeURIComponent(run.taskId as string)}`;
    for (let i = 0; i < REPOLLS; i++) {
      const poll = await ctx.http.call(this.id, "GET", path);
      const body = json<{ status?: unknown; zipUrl?: unknown }>(poll);
      if (body?.status !== run.terminal) {
        const seen = `${describe(poll)} status ${JSON.stringify(body?.status ?? null)}`;
        failures.push(
          failure(`poll ${i + 1} after ${run.terminal} reported another state`, [poll], run.terminal, seen),
        );
        continue;
      }
      if (run.terminal !== "completed" || !first) continue;
      if (typeof body.zipUrl !== "string") {
        failures.push(failure(`poll ${i + 1} after completed has no zipUrl`, [poll], "a zipUrl", "none"));
        continue;
      }
      const zip = await ctx.http.call(this.id, "GET", body.zipUrl, { auth: "none" });
      if (!samePackage(ctx, first, zip, firstPackage)) {
        failures.push(
          failure(
            `the zipUrl of poll ${i + 1} serves another package than the first`,
            [first, poll, zip],
            "the same zip bytes, or the same manifest",
            `${describe(zip)}, ${zip.response?.bytes ?? 0} bytes (first: ${first.response?.bytes ?? 0})`,
          ),
        );
      }
    }
    return { failures, notes: [`${REPOLLS} polls after ${run.terminal}`] };
  },
};

function samePackage(
  ctx: Parameters<CheckDefinition["run"]>[0],
  first: Exchange,
  later: Exchange,
  firstPackage: ReturnType<typeof readPackage> | undefined,
): boolean {
  if (status(later) !== 200 || !later.raw) return false;
  if (first.raw?.equals(later.raw)) return true;
  const again = readPackage(ctx.contract, later.raw);
  return (
    firstPackage?.ok === true && again.ok && JSON.stringify(again.manifest) === JSON.stringify(firstPackage.manifest)
  );
}

export const DEEPCRAWL_TERMINAL_CHECKS = [stays];
