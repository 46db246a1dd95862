// `plumbline bench proxy-catch`: the proxy's passive catch rate. A client's journey (proxy/test/catch-journey.ts:
// every operation, batches, balance reads, a deepcrawl to its zip, an empty account, invalid requests) goes through
// `plumbline proxy` in front of implementations with one seeded fault each: the mock behind the conformance suite's
// fault doubles (conformance/test/fault-variants.ts) and the fuzzer's (fuzz/test/fault-proxy.ts). Per fault: whether
// the journey's traffic exercised it at all (the fault double changed an answer, or called the target behind the
// client's back, at least once), whether the proxy noticed (a response-side violation), and whether the conformance
// suite kills it (its own check list for its fault doubles, a whole run for the fuzzer's). First the same journey
// through the proxy in front of the clean mock: it must leave no response-side violation. Lives in bench/ because
// it runs on test glue (the fault doubles and the journey), imported only when it runs (sharp among them).
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname } from "node:path";
import type { Contract } from "@plumbline-kit/contract";
import type { Fault, ProxiedResponse } from "@plumbline-kit/tools/conformance/test/fault-proxy";
import type { Fault as FuzzFault } from "@plumbline-kit/tools/fuzz/test/fault-proxy";
import type { CatchJourneyOptions, JourneyCall } from "@plumbline-kit/tools/proxy/test/catch-journey";

export const FUZZ_FAULTS: FuzzFault[] = [
  "accept-out-of-range",
  "accept-unknown-properties",
  "charge-rejected",
  "miscount-batch-summary",
  "deepcrawl-stalls",
  "drop-connection",
];

export interface ProxyCatchOptions {
  /** also run the journey through the proxy in front of the reference (a child process, with the conformance
   * suite's fixture site and the upstream stand-ins on loopback) */
  reference?: boolean;
  /** also run the conformance suite against each faulty target (default true) */
  conformance?: boolean;
  /** only the faults whose name contains one of these strings */
  faults?: string[];
  /** where the JSON result is written (default reports/bench/proxy-catch.json; null: nowhere) */
  out?: string | null;
  /** called after each fault, for progress */
  onFault?: (outcome: FaultOutcome) => void;
}

export interface FaultOutcome {
  /** the variant's name (the conformance suite's fault doubles) or the fuzzer's fault name */
  name: string;
  /** the suite's fault doubles of the seed, the fuzzer's, or the suite's of the live contract's /ask and /feedback */
  source: "conformance" | "fuzz" | "live";
  /** times the fault double changed something during the journey (0: the journey's traffic does not exercise it) */
  exercised: number;
  /** the response-side rules the proxy reported, with their counts */
  noticed: Record<string, number>;
  /** why passive traffic cannot show the fault (only the service knows it), when that is so: never a miss */
  trafficBlind?: string;
  /** the conformance suite's verdict: killed (the run failed), survived (it passed), or not run */
  conformance: "killed" | "survived" | "not run";
  /** the checks that failed */
  conformanceFailed: string[];
}

export interface ProxyCatchResult {
  date: string;
  machine: { cpus: number; model: string; node: string; loadAverage: number[] };
  journey: { calls: number; liveCalls: number };
  /** the same journey in front of the clean mock: response-side rules reported (must be none) */
  clean: Record<string, number>;
  /** the live journey (/ask and /feedback) in front of the clean mock under --contract live (must be none) */
  liveClean: Record<string, number>;
  /** the clean journey's balance windows: judged, and skipped by reason (none: its calls are sequential) */
  cleanBalance: { judged: number; skipped: Record<string, number> };
  /** the checks that fail through the fuzzer's fault proxy with no fault (not counted against its faults) */
  fuzzProxyBaseline: string[];
  /** the same journey in front of the reference, when asked (--reference) */
  reference: { noticed: Record<string, number>; balance: { judged: number; skipped: Record<string, number> } } | null;
  faults: FaultOutcome[];
  totals: {
    faults: number;
    exercised: number;
    /** exercised and noticed by the proxy */
    noticed: number;
    /** exercised, not noticed (the faults traffic cannot show aside) */
    missed: string[];
    /** exercised, and not visible to passive traffic by nature (trafficBlind) */
    blind: string[];
    /** killed by the conformance suite (of the faults it was run against) */
    killed: number;
    conformanceRuns: number;
  };
}

const KEY = "KEY";
const BROKE = "BROKE";

/** The response-side rules of a proxy report, with their counts. */
function responseRules(report: {
  operations: Array<{ rules: Array<{ rule: string; side: string; count: number }> }>;
}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const op of report.operations)
    for (const g of op.rules) if (g.side === "response") out[g.rule] = (out[g.rule] ?? 0) + g.count;
  return out;
}

const headerText = (h: ProxiedResponse["headers"]) =>
  JSON.stringify(
    Object.entries(h)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
const changed = (a: ProxiedResponse, b: ProxiedResponse) =>
  a.status !== b.status || !a.body.equals(b.body) || headerText(a.headers) !== headerText(b.headers);

/** The fault, counting each time it changes something. */
function counting(fault: Fault, count: () => void): Fault {
  return {
    duplicate:
      fault.duplicate &&
      ((req) => {
        const d = fault.duplicate?.(req) ?? false;
        if (d) count();
        return d;
      }),
    sideCall:
      fault.sideCall &&
      ((req, res) => {
        const side = fault.sideCall?.(req, res) ?? null;
        if (side) count();
        return side;
      }),
    rewrite:
      fault.rewrite &&
      (async (req, res) => {
        let out = res;
        try {
          out = fault.rewrite ? await fault.rewrite(req, res) : res;
        } catch {
          // a fault written for valid requests (it parses the body) leaves the others alone: the fault proxy would
          // answer 599 instead, a fault of the double's own, not the seeded one
          return res;
        }
        if (changed(res, out)) count();
        return out;
      }),
  };
}

async function journeyThroughProxy(
  contract: Contract,
  upstream: string,
  site?: Pick<CatchJourneyOptions, "site" | "pages" | "settle">,
  /** another journey than the client team's (the live contract's) */
  journey?: (base: string) => Promise<JourneyCall[]>,
) {
  const { startProxy } = await import("@plumbline-kit/tools/proxy/start-proxy");
  const { runCatchJourney } = await import("@plumbline-kit/tools/proxy/test/catch-journey");
  const proxy = await startProxy({ upstream, port: 0, reportDir: null, contract });
  try {
    const calls = journey
      ? await journey(proxy.url)
      : await runCatchJourney({ base: proxy.url, key: KEY, brokeKey: BROKE, ...site });
    const report = proxy.report();
    return {
      calls,
      noticed: responseRules(report),
      balance: { judged: report.totals.balanceWindows, skipped: report.totals.balanceSkipped },
    };
  } finally {
    await proxy.close();
  }
}

/** The journey through the proxy in front of the reference, on the conformance suite's fixture site. */
async function againstReference(contract: Contract) {
  const { startFixtureServer } = await import("@plumbline-kit/tools/conformance/fixtures/fixture-server");
  const { startReferenceProcess } = await import("../../../test-support/reference-process.ts");
  const { startUpstreamStandIns } = await import("../../../test-support/upstream-stand-ins.ts");
  const upstreams = await startUpstreamStandIns();
  const site = await startFixtureServer();
  try {
    const reference = await startReferenceProcess({
      keys: [`${KEY}:100000`, `${BROKE}:0`],
      args: ["--rate-limit", "0", ...upstreams.args],
    });
    try {
      const { noticed, balance } = await journeyThroughProxy(contract, reference.url, {
        site: site.url,
        pages: { article: "/article.html", product: "/product.html" },
        // the reference's task runs on its own clock: the journey waits between polls
        settle: () => new Promise<void>((r) => setTimeout(r, 250)),
      });
      return { noticed, balance };
    } finally {
      await reference.stop();
    }
  } finally {
    await site.close();
    await upstreams.close();
  }
}

export async function benchProxyCatch(options: ProxyCatchOptions = {}): Promise<ProxyCatchResult> {
  const withConformance = options.conformance ?? true;
  const wanted = (name: string) => !options.faults?.length || options.faults.some((f) => name.includes(f));
  const { loadContract } = await import("@plumbline-kit/contract");
  const { startMock } = await import("@plumbline-kit/mock/start-mock");
  const { DEMO_PAYMENT_KEY } = await import("@plumbline-kit/mock/demo-keys");
  const { runConformance } = await import("@plumbline-kit/tools/conformance/index");
  const { startFaultProxy: startSuiteFaultProxy } = await import("@plumbline-kit/tools/conformance/test/fault-proxy");
  const { faultVariants } = await import("@plumbline-kit/tools/conformance/test/fault-variants");
  const { startFaultProxy: startFuzzFaultProxy } = await import("@plumbline-kit/tools/fuzz/test/fault-proxy");
  const contract = await loadContract();
  const mock = await startMock({
    port: 0,
    contract,
    keys: [
      { key: KEY, credits: 100_000_000 },
      { key: BROKE, credits: 0 },
    ],
    deepcrawlSteps: { queuedMs: 0, waitingMs: 0, processingMs: 100 },
    rateLimits: { perAccount: 0 },
  });
  const faults: FaultOutcome[] = [];
  try {
    const clean = await journeyThroughProxy(contract, mock.url);
    const reference = options.reference ? await againstReference(contract) : null;
    const conform = async (target: string, only?: string[]) => {
      const r = await runConformance({
        target,
        apiKey: KEY,
        brokeApiKey: BROKE,
        paymentMethod: "test",
        paymentKey: DEMO_PAYMENT_KEY,
        reportDir: null,
        only,
      });
      return {
        conformance: r.exitCode === 1 ? ("killed" as const) : ("survived" as const),
        conformanceFailed: r.checks.filter((c) => c.status === "failed").map((c) => c.id),
      };
    };
    const notRun = { conformance: "not run" as const, conformanceFailed: [] };

    // the suite's fault doubles: fresh ones for the journey and for the suite (two of them count what they saw)
    const journeyVariants = faultVariants();
    const suiteVariants = faultVariants();
    for (const [i, v] of journeyVariants.entries()) {
      if (!wanted(v.name)) continue;
      let exercised = 0;
      const faulty = await startSuiteFaultProxy(
        mock.url,
        counting(v.fault, () => exercised++),
      );
      let noticed: Record<string, number>;
      try {
        noticed = (await journeyThroughProxy(contract, faulty.url)).noticed;
      } finally {
        await faulty.close();
      }
      let verdict: Pick<FaultOutcome, "conformance" | "conformanceFailed"> = notRun;
      if (withConformance) {
        const target = await startSuiteFaultProxy(mock.url, suiteVariants[i].fault);
        try {
          verdict = await conform(target.url, v.only);
        } finally {
          await target.close();
        }
      }
      const outcome: FaultOutcome = { name: v.name, source: "conformance", exercised, noticed, ...verdict };
      faults.push(outcome);
      options.onFault?.(outcome);
    }
    // the fuzzer's fault doubles, judged by a whole run of the suite; its fault proxy sends the mock's own Host, so
    // a check or two fails through it whatever the fault (the discovery documents name the mock's origin): a fault
    // is killed by what fails beyond a run through the same proxy with no fault
    let fuzzBaseline: string[] = [];
    if (withConformance && FUZZ_FAULTS.some(wanted)) {
      const target = await startFuzzFaultProxy(mock.url, "none" as FuzzFault, contract);
      try {
        fuzzBaseline = (await conform(target.url)).conformanceFailed;
      } finally {
        await target.close();
      }
    }
    for (const name of FUZZ_FAULTS) {
      if (!wanted(name)) continue;
      let exercised = 0;
      const faulty = await startFuzzFaultProxy(mock.url, name, contract, { onApplied: () => exercised++ });
      let noticed: Record<string, number>;
      try {
        noticed = (await journeyThroughProxy(contract, faulty.url)).noticed;
      } finally {
        await faulty.close();
      }
      let verdict: Pick<FaultOutcome, "conformance" | "conformanceFailed"> = notRun;
      if (withConformance) {
        const target = await startFuzzFaultProxy(mock.url, name, contract);
        try {
          const failed = (await conform(target.url)).conformanceFailed.filter((id) => !fuzzBaseline.includes(id));
          verdict = { conformance: failed.length > 0 ? "killed" : "survived", conformanceFailed: failed };
        } finally {
          await target.close();
        }
      }
      const outcome: FaultOutcome = { name, source: "fuzz", exercised, noticed, ...verdict };
      faults.push(outcome);
      options.onFault?.(outcome);
    }

    const live = await liveFaults(wanted, withConformance);
    for (const outcome of live.faults) {
      faults.push(outcome);
      options.onFault?.(outcome);
    }

    const exercised = faults.filter((f) => f.exercised > 0);
    const noticed = exercised.filter((f) => Object.keys(f.noticed).length > 0);
    const ran = faults.filter((f) => f.conformance !== "not run");
    const result: ProxyCatchResult = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "", node: process.version, loadAverage: loadavg() },
      journey: { calls: clean.calls.length, liveCalls: live.calls },
      clean: clean.noticed,
      liveClean: live.clean,
      cleanBalance: clean.balance,
      reference,
      fuzzProxyBaseline: fuzzBaseline,
      faults,
      totals: {
        faults: faults.length,
        exercised: exercised.length,
        noticed: noticed.length,
        missed: exercised.filter((f) => Object.keys(f.noticed).length === 0 && !f.trafficBlind).map((f) => f.name),
        blind: exercised.filter((f) => f.trafficBlind).map((f) => f.name),
        killed: ran.filter((f) => f.conformance === "killed").length,
        conformanceRuns: ran.length,
      },
    };
    const out = options.out === undefined ? "reports/bench/proxy-catch.json" : options.out;
    if (out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    }
    return result;
  } finally {
    await mock.close();
  }
}

/**
 * The live contract's seeded faults (conformance/test/live-fault-variants.ts): the live journey through the proxy
 * under --contract live in front of the live mock behind each, and the suite's verdict on its own check list. The
 * mock runs its rate limits on a manual clock, set to the start of the next window before each journey, so each
 * starts in a fresh one; every suite run reports with an empty account of its own.
 */
async function liveFaults(
  wanted: (name: string) => boolean,
  withConformance: boolean,
): Promise<{ clean: Record<string, number>; calls: number; faults: FaultOutcome[] }> {
  const { loadContract } = await import("@plumbline-kit/contract");
  const { startMock } = await import("@plumbline-kit/mock/start-mock");
  const { runConformance } = await import("@plumbline-kit/tools/conformance/index");
  const { startFaultProxy } = await import("@plumbline-kit/tools/conformance/test/fault-proxy");
  const { liveFaultVariants } = await import("@plumbline-kit/tools/conformance/test/live-fault-variants");
  const { runLiveCatchJourney, startNextWindow } = await import("@plumbline-kit/tools/proxy/test/live-catch-journey");
  const contract = await loadContract({ version: "live" });
  const variants = liveFaultVariants();
  const broke = (i: number) => `${BROKE}-live-${i}`;
  const mock = await startMock({
    port: 0,
    contract,
    clock: "manual",
    keys: [
      { key: KEY, credits: 100_000_000 },
      ...Array.from({ length: variants.length + 1 }, (_, i) => ({ key: broke(i), credits: 0 })),
    ],
  });
  const nextWindow = () => startNextWindow(mock.url);
  const journey = (base: string) => runLiveCatchJourney({ base, key: KEY, brokeKey: broke(0), admin: mock.url });
  const faults: FaultOutcome[] = [];
  try {
    await nextWindow();
    const clean = await journeyThroughProxy(contract, mock.url, undefined, journey);
    const suiteVariants = liveFaultVariants();
    for (const [i, v] of variants.entries()) {
      if (!wanted(v.name)) continue;
      await nextWindow();
      let exercised = 0;
      const faulty = await startFaultProxy(
        mock.url,
        counting(v.fault, () => exercised++),
      );
      let noticed: Record<string, number>;
      try {
        noticed = (await journeyThroughProxy(contract, faulty.url, undefined, journey)).noticed;
      } finally {
        await faulty.close();
      }
      let verdict: Pick<FaultOutcome, "conformance" | "conformanceFailed"> = {
        conformance: "not run",
        conformanceFailed: [],
      };
      if (withConformance) {
        const target = await startFaultProxy(mock.url, suiteVariants[i].fault);
        try {
          const r = await runConformance({
            contractVersion: "live",
            target: target.url,
            apiKey: KEY,
            brokeApiKey: broke(i + 1),
            reportDir: null,
            only: v.only,
          });
          verdict = {
            conformance: r.exitCode === 1 ? "killed" : "survived",
            conformanceFailed: r.checks.filter((c) => c.status === "failed").map((c) => c.id),
          };
        } finally {
          await target.close();
        }
      }
      faults.push({
        name: v.name,
        source: "live",
        exercised,
        noticed,
        ...(v.trafficBlind ? { trafficBlind: v.trafficBlind } : {}),
        ...verdict,
      });
    }
    return { clean: clean.noticed, calls: clean.calls.length, faults };
  } finally {
    await mock.close();
  }
}

const rules = (r: Record<string, number>) =>
  Object.keys(r).length === 0
    ? "-"
    : Object.entries(r)
        .map(([k, n]) => `${k}${n > 1 ? ` x${n}` : ""}`)
        .join(", ");

export function renderProxyCatchBench(r: ProxyCatchResult): string {
  const lines = [
    `plumbline bench proxy-catch: ${r.journey.calls} calls per journey, ${r.faults.length} seeded faults`,
    `clean mock: ${Object.keys(r.clean).length === 0 ? "no response-side violation" : `VIOLATIONS ${rules(r.clean)}`}; balance windows judged ${r.cleanBalance.judged}, skipped ${Object.values(r.cleanBalance.skipped).reduce((a, b) => a + b, 0)}`,
    `clean mock under --contract live (${r.journey.liveCalls} calls through /ask and /feedback): ${Object.keys(r.liveClean).length === 0 ? "no response-side violation" : `VIOLATIONS ${rules(r.liveClean)}`}`,
    ...(r.reference
      ? [
          `reference: ${Object.keys(r.reference.noticed).length === 0 ? "no response-side violation" : `VIOLATIONS ${rules(r.reference.noticed)}`}; balance windows judged ${r.reference.balance.judged}, skipped ${Object.values(r.reference.balance.skipped).reduce((a, b) => a + b, 0)}`,
        ]
      : []),
    "",
    "| fault | source | exercised | proxy noticed | conformance |",
    "|---|---|---|---|---|",
    ...r.faults.map(
      (f) =>
        `| ${f.name} | ${f.source} | ${f.exercised > 0 ? `yes (${f.exercised})` : "no"} | ${rules(f.noticed)} | ${f.conformance}${f.conformanceFailed.length ? ` (${f.conformanceFailed.join(", ")})` : ""} |`,
    ),
    "",
    `exercised by the journey: ${r.totals.exercised} of ${r.totals.faults}`,
    `noticed by the proxy: ${r.totals.noticed} of ${r.totals.exercised} exercised${r.totals.missed.length ? ` (missed: ${r.totals.missed.join("; ")})` : ""}${r.totals.blind.length ? `; not visible to passive traffic by nature: ${r.totals.blind.join("; ")}` : ""}`,
    r.totals.conformanceRuns
      ? `killed by the conformance suite: ${r.totals.killed} of ${r.totals.conformanceRuns}${r.fuzzProxyBaseline.length ? ` (through the fuzzer's fault proxy with no fault: ${r.fuzzProxyBaseline.join(", ")} fail, not counted)` : ""}`
      : "the conformance suite was not run (--no-conformance)",
  ];
  return lines.join("\n");
}
