// An export plan as an Artillery test script (YAML): the arrival phases, one Artillery scenario per request of the
// plumbline scenario with its weight (Artillery picks a scenario per arriving user by weight), the deepcrawl flow as
// submit → polls (think time) → zip, the API key from the environment, and the thresholds as `ensure` conditions
// over the metrics the processor records. Comments in the file say how to run it and what it could not express.
import { stringify } from "yaml";
import type { ExportChecks } from "./export-checks.ts";
import type { ExportPlan, PlanTemplate } from "./export-plan.ts";

const HOOKS = {
  beforeRequest: ["plumblineBeforeRequest"],
  afterResponse: ["plumblineAfterResponse"],
  onError: ["plumblineOnError"],
};

/** Artillery's `{{ }}` for a setup capture (the plan writes `{{name}}`). */
const artilleryVars = (text: string) => text.replace(/\{\{(\w+)\}\}/g, "{{ $1 }}");

function request(t: PlanTemplate, keyEnv: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const headers: Record<string, string> = { ...t.headers };
  if (t.auth) headers.authorization = `Bearer {{ $env.${keyEnv} }}`;
  return {
    [t.method.toLowerCase()]: {
      url: artilleryVars(t.path),
      name: t.id,
      ...extra,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(t.body === null ? {} : { body: artilleryVars(t.body) }),
    },
  };
}

function describe(t: PlanTemplate): string {
  const what = t.invalid ? (t.auth ? "invalid" : "unpaid") : t.batch ? "batch" : "";
  return [t.id, t.operationId, what].filter(Boolean).join(" ");
}

export function artilleryScript(plan: ExportPlan, checks: ExportChecks, processorFile: string): string {
  const p = plan.phases;
  const phases = [
    ...(p.warmupSeconds > 0
      ? [{ name: "warm-up", duration: p.warmupSeconds, arrivalRate: Math.min(1, p.rate), rampTo: p.rate }]
      : []),
    { name: "measured", duration: p.durationSeconds, arrivalRate: p.rate },
  ];
  const conditions = checks.checks
    .filter((c) => c.artillery !== null)
    .map((c) => ({ expression: c.artillery as string, strict: true }));
  const setupHook = plan.setup.length ? { beforeScenario: ["plumblineSetup"] } : {};
  const scenarios = plan.flow
    ? [
        {
          name: "deepcrawl flow: submit, poll until completed, fetch the zip",
          ...HOOKS,
          ...setupHook,
          flow: [
            { function: "plumblineFlowStart" },
            request(plan.flow.submit, plan.apiKeyEnv, { ifTrue: "plumbline_admitted" }),
            {
              loop: [
                // a number of seconds that is not whole would be read as milliseconds: the unit, always
                { think: `${plan.flow.pollIntervalMs}ms` },
                { function: "plumblinePollWait" },
                request(plan.flow.poll, plan.apiKeyEnv, { ifTrue: "plumbline_admitted" }),
              ],
              whileTrue: "plumblineFlowPolling",
            },
            { function: "plumblineZipReady" },
            { get: { url: "{{ plumbline_zipUrl }}", name: "z0", ifTrue: "plumbline_zip" } },
          ],
        },
      ]
    : plan.templates.map((t) => ({
        name: describe(t),
        weight: t.weight,
        ...HOOKS,
        ...setupHook,
        flow: [{ function: `plumblineAdmit_${t.id}` }, request(t, plan.apiKeyEnv, { ifTrue: "plumbline_admitted" })],
      }));
  const doc = {
    config: {
      target: plan.target,
      processor: `./${processorFile}`,
      http: { timeout: 10 },
      phases,
      plugins: { ensure: { conditions } },
    },
    scenarios,
  };
  return `${header(plan, checks)}\n${stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

function header(plan: ExportPlan, checks: ExportChecks): string {
  const p = plan.phases;
  const lines = [
    `plumbline load export: scenario "${plan.scenario.name}" (${plan.scenario.description})`,
    `target ${plan.target}${plan.fixture ? `, fixture site ${plan.fixture}` : ""}`,
    `${p.warmupSeconds ? `${p.warmupSeconds} s warm-up ramp, then ` : ""}${p.durationSeconds} s at ${p.rate} ${plan.flow ? "flows" : "arrivals"}/s per load generator (--count N runs N of them: N times this load)${p.rate < p.requestedRate ? ` (${p.requestedRate}/s asked; the target's limits allow less)` : ""}`,
    `rate limits: ${plan.rateLimits.detail}`,
    "",
    "Run (the API key from the environment; the account step checks the credits, docs/load-export.md):",
    `  plumbline load account --before --target ${plan.target} --api-key "$${plan.apiKeyEnv}"`,
    `  ${plan.apiKeyEnv}=… npx artillery run --output report.json THIS_FILE`,
    "  (many generators: artillery run-fargate --region R --count N … or artillery run --platform aws:lambda",
    "   --platform-opt region=R --count N …, with --dotenv/--secret for the key; ensure judges the merged result)",
    `  plumbline load account --report report.json --target ${plan.target} --api-key "$${plan.apiKeyEnv}"`,
    "",
    "Thresholds (ensure conditions, in this order):",
    ...checks.checks.map(
      (c) => `  ${c.key}: ${c.expression}${c.artillery === null ? `  NOT CHECKED (${c.note})` : ""}`,
    ),
    ...(checks.dropped.length ? ["Not exported (plumbline load would not judge them either):"] : []),
    ...checks.dropped.map((d) => `  ${d.key}: ${d.expression} (${d.reason})`),
  ];
  return lines.map((l) => (l ? `# ${l}` : "#")).join("\n");
}
