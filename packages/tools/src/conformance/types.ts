// The typed records of a conformance run: checks, their outcomes, the recorded traffic. Reports are rendered from
// these records only (style: "reports are rendered from typed records, never from parsed text").
import type { Contract } from "@plumbline-kit/contract";
import type { FixtureCanary, FixtureManifest } from "./fixtures/fixture-manifest.ts";
import type { HttpClient } from "./http-client.ts";
import type { OperationScope } from "./operation-scope.ts";
import type { RefusalCalibration } from "./probes/payment-refusal.ts";
import type { RateLimitSetting } from "./rate-windows.ts";
import type { SkipKind, SkipTally } from "./skip-reasons.ts";

/** strict: the project's decisions enforced; lenient: the interface text only; alt-bounds: which bound set applies */
export const CONFORMANCE_PROFILES = ["strict", "lenient", "alt-bounds"] as const;
export type ProfileName = (typeof CONFORMANCE_PROFILES)[number];
export type Severity = "critical" | "major" | "minor";
export type CheckStatus = "passed" | "failed" | "warning" | "skipped";

/**
 * What a check rests on: the interface text itself, a plumbline decision (spec/DECISIONS.md), or what a real client
 * relies on. A client-compatibility check judges behaviour the contract allows but a named official client breaks
 * on: its findings fail the run (`relies` is the reason), and are warnings under the lenient profile only.
 */
export type Basis =
  | { kind: "contract" }
  | { kind: "decision"; decision: string }
  | {
      kind: "client";
      /** the client and version, e.g. "@search1api/client 0.2.1" */
      client: string;
      /** what the client does that the finding breaks */
      relies: string;
      /** the decision that keeps plumbline's own implementations clear of it */
      decision: string;
    };

/** The basis as reports name it. */
export function basisLabel(b: Basis): string {
  if (b.kind === "contract") return "contract";
  if (b.kind === "decision") return `decision ${b.decision}`;
  return `client compatibility (${b.client}; ${b.decision})`;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** the body as sent (text), when there was one */
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  /** parsed JSON when the content type is JSON and it parses */
  json?: unknown;
  /** the body text (truncated) for text bodies, a summary for binary ones */
  text: string;
  bytes: number;
}

export interface Exchange {
  id: number;
  /** the check (or shared probe) that made the request */
  by: string;
  /** the contract operation, when the path is one of the contract's */
  operationId: string | null;
  request: RecordedRequest;
  /** absent when the request got no answer (network error, timeout) */
  response?: RecordedResponse;
  error?: string;
  /** the raw body, kept in memory for checks (zip downloads, images); never written to reports */
  raw?: Buffer;
  /** the JSON value sent, kept in memory for the traffic checks; never written to reports */
  sent?: unknown;
  durationMs: number;
  /** epoch ms the answer arrived (a 402 challenge's expiry is judged against it) */
  at?: number;
}

export interface Failure {
  message: string;
  /** ids of the exchanges that show it */
  exchanges: number[];
  expected?: string;
  actual?: string;
}

/** What a check's run returns: failures as values; `skip` when a precondition turned out unmet at run time. */
export interface CheckOutcome {
  failures: Failure[];
  notes?: string[];
  /** machine-readable findings for the run record (e.g. `bound-set`) */
  facts?: Record<string, string>;
  skip?: string;
  /** what kind of skip (default not-applicable): a missing precondition fails the run unless allowed */
  skipKind?: SkipKind;
}

export interface CheckResult {
  id: string;
  title: string;
  severity: Severity;
  section: string;
  basis: Basis;
  status: CheckStatus;
  /** why a check was skipped, why its findings are a warning (the lenient profile), or which client a failure breaks */
  reason?: string;
  /** the kind of a skip (skip-reasons.ts): counted in the summary and the JUnit file */
  skipKind?: SkipKind;
  failures: Failure[];
  notes: string[];
  facts?: Record<string, string>;
  /** ids of the exchanges the check (or the probes it uses) made */
  exchangeIds: number[];
  durationMs: number;
}

export type Precondition = "broke-key" | "fetches-real-pages" | "payment-key";

export interface RunContext {
  contract: Contract;
  /** the contract of the other published bound set (D-bound-sets) */
  altContract: Contract;
  http: HttpClient;
  options: ResolvedOptions;
  /** the operations the run covers (--operations) */
  scope: OperationScope;
  /** the operations whose costly valid edges are judged by a payment refusal (calibrated before the plan) */
  refusal: RefusalCalibration;
  /** run a shared probe once per run (several checks judge the same exchanges) */
  probe<T>(probe: Probe<T>): Promise<T>;
  progress(line: string): void;
}

export interface Probe<T> {
  id: string;
  /**
   * credits the probe spends at most on the main account, calling only operations in scope; `refusal`: the
   * operations calibrated for the payment-refusal verdict (probes/payment-refusal.ts)
   */
  cost(contract: Contract, alt: Contract, scope: OperationScope, refusal?: ReadonlySet<string>): number;
  /** it points the target at fixture pages when the target fetches real pages (the canary decides) */
  usesFixtureSite?: boolean;
  /** other shared probes whose answers it reads (their cost is planned with it, once) */
  uses?: Probe<unknown>[];
  run(ctx: RunContext): Promise<T>;
}

/** The operations a check concerns: a list of operation ids, or one derived from the contract. */
export type CheckOperations = string[] | ((contract: Contract, alt: Contract) => string[]);

export interface CheckDefinition {
  id: string;
  title: string;
  severity: Severity;
  /** the interface-spec section it enforces */
  section: string;
  basis: Basis;
  preconditions?: Precondition[];
  /**
   * the operations it concerns (--operations): skipped when none is in scope, and a check spanning several covers
   * the ones in scope only; absent for platform checks (auth, discovery, health, usage, traffic)
   */
  operations?: CheckOperations;
  /**
   * operations the contract must have for the check to exist at all (the live version's /ask and /feedback): under a
   * version without them the check is not planned, listed nor counted, as if it were not in the registry
   */
  requires?: string[];
  /** it points the target at fixture pages when the target fetches real pages (the canary decides) */
  usesFixtureSite?: boolean;
  /** opt-in checks (they hammer or take long) run only when named in --only or --include */
  optIn?: boolean;
  /** checks over the traffic of every other check run after them */
  phase?: "main" | "last" | "traffic";
  /** credits of its own calls (shared probes are counted once, from `probes`) */
  cost?(contract: Contract, alt: Contract, scope: OperationScope): number;
  probes?: Probe<unknown>[];
  run(ctx: RunContext): Promise<CheckOutcome>;
}

export interface ConformanceOptions {
  target: string;
  apiKey: string;
  brokeApiKey?: string;
  /** pay with this method in the payment checks (only `test`, the local test method: D-payment-methods) */
  paymentMethod?: "test";
  /** the target's test payment key (`--payment-test-key` of the mock or the reference) */
  paymentKey?: string;
  profile?: ProfileName;
  /**
   * the version of the contract to judge the target by (default spec/openapi.yaml): an older document run against
   * a newer implementation answers "will clients of the old contract still work?"
   */
  spec?: string;
  /** the version of the contract to judge by, `seed` (default) or `live` (--contract; D-live-version); `spec` wins */
  contractVersion?: string;
  only?: string[];
  skip?: string[];
  /** operationIds the run is restricted to (default: every operation) */
  operations?: string[];
  /** opt-in checks to add to the plan */
  include?: string[];
  /** undefined: reports/conformance/<timestamp>; null: no reports */
  reportDir?: string | null;
  maxCredits?: number;
  /** a fixture site the target can fetch (default: served on 127.0.0.1 by the run itself); needs fixtureManifest */
  fixtureUrl?: string;
  /**
   * what the suite must know of that site (fixtures export DIR → DIR/manifest.json, serve-fixtures --manifest FILE):
   * a path or the manifest itself; its canary tokens prove the target fetched a page
   */
  fixtureManifest?: string | FixtureManifest;
  /** a request log of the fixture host (one URL or Common Log Format line per request), for sitemap-no-page-content */
  fixtureLog?: string;
  /**
   * kinds of missing precondition whose skips do not fail the run (skip-reasons.ts: fixture-unreachable,
   * fixture-manifest, fixture-incomplete, broke-key, payment-key, oauth-account)
   */
  allowSkipped?: string[];
  /** seconds a deepcrawl may take to complete */
  timeoutSeconds?: number;
  /** per-request timeout, ms */
  requestTimeoutMs?: number;
  /** an account of the target's sign-in page, to consent with in headless Chromium (the OAuth checks) */
  oauthUser?: string;
  oauthPassword?: string;
  /** Chromium for that consent step (default $PLUMBLINE_CHROMIUM, else the embedded build of @sparticuz/chromium) */
  chromiumPath?: string;
  /**
   * the target's rate limits: "auto" (default) learns them from its RateLimit headers; "N[,screenshot=M]" (or the
   * parsed form) states them for a target that does not advertise them; the suite paces itself below them
   */
  rateLimit?: string | RateLimitSetting;
  onProgress?: (line: string) => void;
}

export interface ResolvedOptions
  extends Required<
    Omit<
      ConformanceOptions,
      | "brokeApiKey"
      | "fixtureUrl"
      | "maxCredits"
      | "oauthUser"
      | "oauthPassword"
      | "chromiumPath"
      | "paymentMethod"
      | "paymentKey"
      | "rateLimit"
      | "fixtureManifest"
      | "fixtureLog"
      | "allowSkipped"
      | "spec"
      | "contractVersion"
    >
  > {
  rateLimit: RateLimitSetting;
  allowSkipped: SkipKind[];
  /** the fixture site's manifest, when the run did not start the site itself */
  fixtureManifest?: FixtureManifest;
  /** a fresh canary page of the run's own fixture server */
  fixtureCanary?: () => FixtureCanary;
  /** paths answering 404 and 410 on the fixture site (null: it has none) */
  fixtureStatusPages?: { "404": string | null; "410": string | null };

  oauthUser?: string;
  oauthPassword?: string;
  chromiumPath?: string;
  brokeApiKey?: string;
  paymentMethod?: "test";
  paymentKey?: string;
  fixtureUrl?: string;
  /** the fixture origin without sitemap, known only when the run serves the fixture site itself */
  fixtureNoSitemapUrl?: string;
  /** the fixture origin whose sitemap is only at the conventional path (idem) */
  fixtureConventionalUrl?: string;
  /**
   * every request the fixture site received so far, as URLs (or paths, from a log that names no host), to see what a
   * target fetched: the run's own server, or --fixture-log
   */
  fixtureRequests?: () => string[];
  maxCredits?: number;
}

export interface ConformanceResult {
  /** 0 all passed, 1 a check failed, 2 the run could not proceed */
  exitCode: 0 | 1 | 2;
  /** set when the run could not proceed */
  error?: string;
  target: string;
  profile: ProfileName;
  /** the --operations selection, when the run was restricted */
  operations?: string[];
  startedAt: string;
  durationMs: number;
  planCredits: number;
  /** usage before and after, when measured */
  creditsSpent?: number;
  summary: { total: number; passed: number; failed: number; warning: number; skipped: number };
  /** the skipped checks by kind; a missing precondition not allowed fails the run (exit 1) */
  skips: SkipTally[];
  /** what the canary found: real, synthetic, or why the target's page fetching could not be judged */
  canary?: { kind: string; reason: string };
  checks: CheckResult[];
  exchanges: Exchange[];
  reportDir?: string;
  /** alt-bounds profile: which published bound set the target enforces */
  boundSet?: string;
}
