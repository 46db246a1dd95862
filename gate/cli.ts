// `plumbline gate`: conformance, a time-boxed fuzz and a short load run in one CI step (issue 17).
import { parseArgs } from "node:util";
import { STAGES, type StageName } from "./gate-types.ts";

export const GATE_HELP = `Usage: plumbline gate --target URL --api-key KEY [--broke-api-key KEY] [--stages conform,fuzz,load]
                     [--budget-credits N] [--time S] [--operations IDS]
                     [--fixture-url URL --fixture-manifest FILE [--fixture-log FILE]] [--allow-skipped KINDS]
                     [--payment-method test --payment-key KEY] [--oauth-user LOGIN --oauth-password PASSWORD]
                     [--rate-limit auto|N[,operation=M] | --ignore-rate-limits]
                     [--scenario NAME] [--thresholds FILE|NAME] [--report-dir DIR | --no-report] [--allow-remote]
                     [--wait-for-target S]

  --api-key KEY         a funded account (or $PLUMBLINE_API_KEY); --broke-api-key an account with 0 credits
                        (or $PLUMBLINE_BROKE_API_KEY) for the 402 checks
  --stages LIST         which stages run, in this order: conform, fuzz, load (default all)
  --budget-credits N    credits of the key the whole gate may spend (default: the key's balance at the start):
                        conformance refuses a plan over it, the fuzzer sends no valid case priced over what is left,
                        load runs at a rate the rest covers and holds back a request that could take it past it
  --time S              seconds for the whole gate (default 120): the fuzzer and the load run share what the
                        conformance run leaves
  --operations IDS      the operations the target implements (conformance --operations, fuzz --only)
  --fixture-url URL, --fixture-manifest FILE
                        a fixture site the target can fetch and its manifest (the conformance canary's tokens): a
                        hosted export (plumbline conform fixtures export DIR --base-url URL → DIR/manifest.json) for
                        a deployment, or serve-fixtures --host 0.0.0.0 --manifest FILE on a network it shares; the
                        manifest alone names the site. Default: the suite serves one on 127.0.0.1, which only a local
                        target started with --allow-private-network reads. The load scenario "reference" needs one
  --fixture-log FILE    the fixture host's request log (conformance --fixture-log)
  --allow-skipped KINDS missing preconditions whose skipped conformance checks do not fail the gate:
                        fixture-unreachable, fixture-manifest, fixture-incomplete, broke-key, payment-key (no
                        --payment-key given), oauth-account (no --oauth-user given). Every skip is counted by kind
                        in the stage summary, the JUnit file and the conformance page
  --payment-method test --payment-key KEY
                        the conformance payment checks pay per request with the target's test payment key (or
                        $PLUMBLINE_PAYMENT_KEY) (D-payment-methods); without them they are skipped (payment-key)
  --oauth-user LOGIN, --oauth-password PASSWORD
                        an account on the target's authorization server (or $PLUMBLINE_OAUTH_USER and
                        $PLUMBLINE_OAUTH_PASSWORD) the OAuth checks sign in with; without it they are skipped
                        (oauth-account)
  --rate-limit auto|N[,operation=M]
                        the target's limits (default auto: its RateLimit headers; N per 60 s when it advertises none):
                        conformance and the fuzzer pace themselves under them, the load stage runs at the rate they
                        allow, counts a 429 within them as throttling and says which thresholds that rate cannot judge
  --ignore-rate-limits  the load stage unpaced, a 429 an error (a target whose limits were lifted for the test key)
  --scenario NAME       load scenario (default mixed)
  --thresholds FILE|NAME
                        the load stage's budgets (default gate: no errors and no answer slower than 35 s, no speed
                        budget: a speed budget is the deployment owner's to state, in a file like
                        load/thresholds/reference.json; the names mock and reference are this project's measured ones)
  --wait-for-target S   seconds to wait for the target to answer GET /health at all before the first stage
                        (default 30; 0: no wait), so a CI step may start it in the background just before
  --allow-remote        allow a target that is not on loopback (the load stage refuses one otherwise)
  --report-dir DIR      default reports/gate/<timestamp>: index.html (linking each stage's report), junit.xml
                        (one suite per stage), gate.json, and conform/, fuzz/, load/

Exit codes: 0 every stage passed, 1 a check, property or threshold failed or conformance checks were skipped for a
missing precondition not allowed, 2 a stage could not run (or the options cannot work).`;

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
      "fixture-manifest": { type: "string" },
      "fixture-log": { type: "string" },
      "allow-skipped": { type: "string" },
      "payment-method": { type: "string" },
      "payment-key": { type: "string" },
      "oauth-user": { type: "string" },
      "oauth-password": { type: "string" },
      "rate-limit": { type: "string" },
      "ignore-rate-limits": { type: "boolean", default: false },
      scenario: { type: "string" },
      thresholds: { type: "string" },
      "report-dir": { type: "string" },
      "no-report": { type: "boolean", default: false },
      "allow-remote": { type: "boolean", default: false },
      "wait-for-target": { type: "string" },
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
  const paymentMethod = values["payment-method"];
  const paymentKey = values["payment-key"] ?? process.env.PLUMBLINE_PAYMENT_KEY;
  if (paymentMethod !== undefined && (paymentMethod !== "test" || !paymentKey)) {
    throw new Error("--payment-method takes test, with --payment-key KEY (the target's test key)");
  }
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
    fixtureManifest: values["fixture-manifest"],
    fixtureLog: values["fixture-log"],
    allowSkipped: list(values["allow-skipped"]),
    paymentMethod: paymentMethod as "test" | undefined,
    paymentKey: paymentMethod ? paymentKey : undefined,
    oauthUser: values["oauth-user"],
    oauthPassword: values["oauth-password"],
    rateLimit: values["rate-limit"],
    ignoreRateLimits: values["ignore-rate-limits"],
    scenario: values.scenario,
    thresholds: values.thresholds,
    allowRemote: values["allow-remote"],
    waitForTargetSeconds: whole("wait-for-target", values["wait-for-target"]),
    reportDir: values["no-report"] ? null : values["report-dir"],
    onProgress: (line) => console.log(line),
  });
  if (r.error) console.error(`plumbline gate: could not run: ${r.error}`);
  console.log(
    `gate ${r.exitCode === 0 ? "passed" : r.exitCode === 1 ? "FAILED" : "could not run"} in ${r.seconds.toFixed(1)} s, ${r.creditsSpent ?? "?"} credits: ${r.stages.map((s) => `${s.stage} ${s.exitCode}`).join(", ")}`,
  );
  return r.exitCode;
}
