// The options of a load run, their defaults and their bounds: every run is bounded in time.
import type { ProgressSample } from "./sample-recorder.ts";
import { fixtureBase } from "./scenario-vars.ts";

export interface LoadOptions {
  /** base URL of the target, e.g. http://127.0.0.1:4010 */
  target: string;
  apiKey: string;
  /** the version of the contract, `seed` (default) or `live` (`--contract`; D-live-version) */
  contractVersion?: string;
  /** a name in load/scenarios/ or a path to a scenario file (default "mixed") */
  scenario?: string;
  /** measured seconds, 1..600 (default 10); answers are awaited at most 10 s more */
  durationSeconds?: number;
  /** unmeasured seconds before the measured ones, 0..60 (default 2; deepcrawl flows have none) */
  warmupSeconds?: number;
  /** closed loop: concurrent connections; open loop: the most sockets used (default 10, 1..1000) */
  connections?: number;
  /** arrivals per second: an open loop at this fixed rate instead of a closed loop */
  rate?: number;
  /**
   * base URL of a fixture site the target can fetch, filled into `{{fixture}}` in scenario bodies (the `reference`
   * scenario needs one: a target that really crawls cannot reach the spec examples' public hosts from a test box)
   */
  fixtureUrl?: string;
  /** thresholds file (default load/thresholds/mock.json); null: no thresholds */
  thresholds?: string | null;
  /** an earlier load.json to compare with */
  baseline?: string;
  /** where load.json and report.html go (default reports/load/<timestamp>); null writes nothing */
  reportDir?: string | null;
  allowRemote?: boolean;
  /** seed of the weighted mix (default 1) */
  seed?: number;
  /** overrides the thresholds file's creditAccounting switch */
  creditAccounting?: boolean;
  /**
   * the target's rate limits (issue 27): "auto" (default) reads its RateLimit-Policy / RateLimit headers;
   * "N[,operation=M]" states them per 60 s for a target that advertises none. The run is paced under them: an open
   * loop at the rate they allow, arrivals that would exceed a window held back, a 429 respecting them counted as
   * throttling, not an error
   */
  rateLimit?: string;
  /** today's behaviour: no pacing, a 429 is an error (a target whose operator lifted the limits for the test key) */
  ignoreRateLimits?: boolean;
  /** the most the run may spend: a paid request that could take it past this is held back, not sent */
  maxCredits?: number;
  /** a line when the run waits (a 429 on its own /usage reads: Retry-After) */
  onWait?: (line: string) => void;
  /** tag each request with its template's index (x-plumbline-template), for the peer comparison */
  tagTemplates?: boolean;
  /** called once a second while the run goes */
  onProgress?: (p: ProgressSample) => void;
}

export interface ResolvedOptions {
  scenario: string;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  rate: number | null;
  seed: number;
  /** the fixture site's base URL without trailing slash, or null */
  fixture: string | null;
}

export const MAX_DURATION_SECONDS = 600;

export function resolveOptions(o: LoadOptions): { ok: true; value: ResolvedOptions } | { ok: false; error: string } {
  const durationSeconds = o.durationSeconds ?? 10;
  const connections = o.connections ?? 10;
  if (!(durationSeconds >= 1 && durationSeconds <= MAX_DURATION_SECONDS))
    return { ok: false, error: `--duration takes 1..${MAX_DURATION_SECONDS} seconds, not ${o.durationSeconds}` };
  const warmupSeconds = o.warmupSeconds ?? 2;
  if (!(warmupSeconds >= 0 && warmupSeconds <= 60))
    return { ok: false, error: `--warmup takes 0..60 seconds, not ${o.warmupSeconds}` };
  if (!(Number.isInteger(connections) && connections >= 1 && connections <= 1000))
    return { ok: false, error: `--connections takes 1..1000, not ${o.connections}` };
  if (o.rate !== undefined && !(o.rate > 0 && o.rate <= 100_000))
    return { ok: false, error: `--rate takes 0 < R <= 100000 arrivals per second, not ${o.rate}` };
  if (!o.apiKey) return { ok: false, error: "--api-key is required (or $PLUMBLINE_API_KEY)" };
  if (o.seed !== undefined && !Number.isSafeInteger(o.seed)) return { ok: false, error: "--seed takes an integer" };
  if (o.maxCredits !== undefined && !(Number.isInteger(o.maxCredits) && o.maxCredits >= 0))
    return { ok: false, error: `maxCredits takes a whole number >= 0, not ${o.maxCredits}` };
  const fixture = o.fixtureUrl === undefined ? null : fixtureBase(o.fixtureUrl);
  if (fixture && !fixture.ok) return fixture;
  return {
    ok: true,
    value: {
      scenario: o.scenario ?? "mixed",
      durationSeconds,
      warmupSeconds,
      connections,
      rate: o.rate ?? null,
      seed: o.seed ?? 1,
      fixture: fixture?.value ?? null,
    },
  };
}
