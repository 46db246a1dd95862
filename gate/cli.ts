// `plumbline gate`: conformance, a time-boxed fuzz and a short load run in one CI step (issue 17).
import { parseArgs } from "node:util";
import { STAGES, type StageName } from "./gate-types.ts";

export const GATE_HELP = `Usage: plumbline gate --target URL --api-key KEY [--broke-api-key KEY] [--stages conform,fuzz,load]
                     [--budget-credits N] [--time S] [--operations IDS] [--fixture-url URL]
                     [--scenario NAME] [--thresholds FILE|NAME] [--report-dir DIR | --no-report] [--allow-remote]

  --api-key KEY         a funded account (or $PLUMBLINE_API_KEY); --broke-api-key an account with 0 credits
                        (or $PLUMBLINE_BROKE_API_KEY) for the 402 checks
  --stages LIST         which stages run, in this order: conform, fuzz, load (default all)
  --budget-credits N    credits of the key the whole gate may spend: conformance refuses a plan over it, the fuzzer
                        sends no valid case priced over what is left, load runs at a rate the rest covers
  --time S              seconds for the whole gate (default 120): the fuzzer and the load run share what the
                        conformance run leaves
  --operations IDS      the operations the target implements (conformance --operations, fuzz --only)
  --fixture-url URL     a site the target can fetch (the conformance suite serves its own otherwise); the load
                        scenario "reference" needs one
  --scenario NAME       load scenario (default mixed); --thresholds FILE|NAME its budgets (default mock)
  --report-dir DIR      default reports/gate/<timestamp>: index.html (linking each stage's report), junit.xml
                        (one suite per stage), gate.json, and conform/, fuzz/, load/

Exit codes: 0 every stage passed, 1 a check, property or threshold failed, 2 a stage could not run.`;

const list = (v: string | undefined) =>
  v
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function whole(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number >= 0, not "${v}"`);
  return n;
}

export async function gateCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string" },
      "api-key": { type: "string" },
      "broke-api-key": { type: "string" },
      stages: { type: "string" },
      "budget-credits": { type: "string" },
      time: { type: "string" },
      operations: { type: "string" },
      "fixture-url": { type: "string" },
      scenario: { type: "string" },
      thresholds: { type: "string" },
      "report-dir": { type: "string" },
      "no-report": { type: "boolean", default: false },
      "allow-remote": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(GATE_HELP);
    return 0;
  }
  const apiKey = values["api-key"] ?? process.env.PLUMBLINE_API_KEY;
  if (!values.target || !apiKey) throw new Error("--target URL and --api-key KEY (or $PLUMBLINE_API_KEY) are required");
  const stages = list(values.stages) as StageName[] | undefined;
  const bad = (stages ?? []).filter((s) => !STAGES.includes(s));
  if (bad.length) throw new Error(`unknown stages: ${bad.join(", ")} (known: ${STAGES.join(", ")})`);
  const time = whole("time", values.time);
  if (time !== undefined && time < 10) throw new Error("--time takes at least 10 seconds");
  const { runGate } = await import("./run-gate.ts");
  const r = await runGate({
    target: values.target,
    apiKey,
    brokeApiKey: values["broke-api-key"] ?? process.env.PLUMBLINE_BROKE_API_KEY,
    stages,
    budgetCredits: whole("budget-credits", values["budget-credits"]),
    timeSeconds: time,
    operations: list(values.operations),
    fixtureUrl: values["fixture-url"],
    scenario: values.scenario,
    thresholds: values.thresholds,
    allowRemote: values["allow-remote"],
    reportDir: values["no-report"] ? null : values["report-dir"],
    onProgress: (line) => console.log(line),
  });
  console.log(
    `gate ${r.exitCode === 0 ? "passed" : r.exitCode === 1 ? "FAILED" : "could not run"} in ${r.seconds.toFixed(1)} s, ${r.creditsSpent ?? "?"} credits: ${r.stages.map((s) => `${s.stage} ${s.exitCode}`).join(", ")}`,
  );
  return r.exitCode;
}
