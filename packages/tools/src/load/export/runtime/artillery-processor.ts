// The Artillery processor of an exported script (bundled into NAME.processor.mjs with its plan): Artillery sends the
// requests the YAML lists; these hooks judge each answer with the runtime plumbline load uses and record it as
// Artillery metrics (metric-names.ts), which `ensure` checks and the account step reads from the JSON report:
// - beforeRequest remembers which template a request is and whether it falls in the measured window;
// - afterResponse classifies the answer (429 within the policy: throttling; a status the scenario did not expect:
//   an error), records its latency, and the credits it cost; onError counts a request never answered;
// - plumblineAdmit_<id> asks the limiter for room before a request (held back when there is none);
// - plumblineSetup runs the scenario's setup steps once per load generator; the flow functions drive a deepcrawl
//   from submit, through its polls, to its zip.
import type { ExportPlan } from "../export-plan.ts";
import {
  artilleryBase,
  artilleryCredit,
  CREDIT_COUNTERS,
  FLOW_COUNTERS,
  FLOW_TIME,
  REQUEST_COUNTERS,
  RESPONSE_TIME,
  ZIP_TIME,
} from "../metric-names.ts";
import { createRuntime, fill, jsonField, pointer, type RuntimeTemplate } from "./engine-runtime.ts";

interface Events {
  emit(event: "counter" | "histogram", name: string, value: number): void;
}
type Next = (err?: Error | null) => void;
interface Context {
  vars: Record<string, unknown>;
}
interface Request {
  name?: string;
  url?: string;
  plumbline?: { t: RuntimeTemplate | null; measured: boolean; sentAt: number };
}
interface Response {
  statusCode: number;
  headers: Record<string, unknown>;
  body?: unknown;
  timings?: { phases?: { total?: number } };
}

const FLOW = "flow:deepcrawl";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface FlowState {
  startedAt: number;
  /** submitting → running → zip → done (completed), or failed; still running at the end: incomplete */
  state: "submitting" | "running" | "zip" | "done" | "failed";
}

export function artilleryProcessor(plan: ExportPlan): Record<string, unknown> {
  const needsKey = [...plan.setup, ...plan.templates, ...(plan.flow ? [plan.flow.submit] : [])].some((t) => t.auth);
  if (needsKey && !process.env[plan.apiKeyEnv])
    throw new Error(`plumbline: set ${plan.apiKeyEnv} to the API key this run uses (the script reads it from there)`);
  const rt = createRuntime(plan);
  const flowBase = artilleryBase(FLOW);
  let primed = false;
  let setupDone: Promise<Record<string, unknown>> | null = null;

  /** Every counter a check reads exists from the start (ensure fails a condition naming a metric never recorded). */
  const prime = (ee: Events) => {
    if (primed) return;
    primed = true;
    for (const key of plan.keys) {
      const names = key === FLOW ? FLOW_COUNTERS : REQUEST_COUNTERS;
      for (const what of names) ee.emit("counter", `${artilleryBase(key)}.${what}`, 0);
    }
    for (const name of Object.values(CREDIT_COUNTERS)) ee.emit("counter", artilleryCredit(name), 0);
  };
  const count = (ee: Events, t: RuntimeTemplate, what: string, n = 1) => {
    ee.emit("counter", `${artilleryBase(t.operationId)}.${what}`, n);
    ee.emit("counter", `${artilleryBase("overall")}.${what}`, n);
  };
  const credit = (ee: Events, name: string, n: number) => {
    if (n) ee.emit("counter", artilleryCredit(name), n);
  };
  const flowOf = (context: Context) => context.vars.plumbline_flow as FlowState | undefined;
  const flowEnds = (ee: Events, context: Context, outcome: "completed" | "failed") => {
    const f = flowOf(context);
    if (!f || f.state === "done" || f.state === "failed") return;
    f.state = outcome === "completed" ? "done" : "failed";
    ee.emit("counter", `${flowBase}.${outcome}`, 1);
  };
  /** Waits (bounded) for room in the target's limits, as plumbline load's flows do: a client polls slower. */
  const room = async (t: RuntimeTemplate, until: number) => {
    while (!rt.admit(t)) {
      if (Date.now() >= until) return false;
      await sleep(100);
    }
    return true;
  };

  const fns: Record<string, unknown> = {
    plumblineBeforeRequest(req: Request, _context: Context, ee: Events, next: Next) {
      prime(ee);
      const t = req.name ? (rt.template(req.name) ?? null) : null;
      req.plumbline = { t, measured: rt.measuring(), sentAt: Date.now() };
      next();
    },
    plumblineAfterResponse(req: Request, res: Response, context: Context, ee: Events, next: Next) {
      const info = req.plumbline;
      if (!info) return next();
      const body = typeof res.body === "string" ? res.body : res.body === undefined ? "" : String(res.body);
      const ms = res.timings?.phases?.total ?? Date.now() - info.sentAt;
      const t = info.t;
      if (!t) {
        // the zip of a completed deepcrawl
        if (res.statusCode === 200) ee.emit("histogram", ZIP_TIME, ms);
        flowEnds(ee, context, res.statusCode === 200 ? "completed" : "failed");
        return next();
      }
      const verdict = rt.answer(t, res.statusCode, res.headers, body);
      credit(ee, CREDIT_COUNTERS.counted, verdict.credits);
      if (info.measured) {
        count(ee, t, "answered");
        if (verdict.throttled) count(ee, t, "throttled");
        if (verdict.unexpected) count(ee, t, "unexpected");
        if (!verdict.throttled) {
          ee.emit("histogram", `${artilleryBase(t.operationId)}.${RESPONSE_TIME}`, ms);
          ee.emit("histogram", `${artilleryBase("overall")}.${RESPONSE_TIME}`, ms);
        }
      }
      const f = flowOf(context);
      if (f && t.id === "f0") {
        const taskId = res.statusCode === 202 ? jsonField(body, "taskId") : undefined;
        if (typeof taskId === "string") {
          context.vars.taskId = taskId;
          f.state = "running";
        } else flowEnds(ee, context, "failed");
      } else if (f && t.id === "p0" && !verdict.throttled) {
        const status = res.statusCode === 200 ? jsonField(body, "status") : res.statusCode === 404 ? "not_found" : null;
        if (status === "completed") {
          ee.emit("histogram", `${flowBase}.${FLOW_TIME}`, Date.now() - f.startedAt);
          const zipUrl = jsonField(body, "zipUrl");
          if (typeof zipUrl === "string") {
            context.vars.plumbline_zipUrl = zipUrl;
            f.state = "zip";
          } else flowEnds(ee, context, "completed");
        } else if (status === "failed" || status === "not_found") flowEnds(ee, context, "failed");
      }
      next();
    },
    plumblineOnError(_err: Error, req: Request, context: Context, ee: Events, next: Next) {
      const info = req.plumbline;
      if (!info) return next();
      const t = info.t;
      if (!t) {
        flowEnds(ee, context, "failed");
        return next();
      }
      const most = rt.unanswered(t);
      if (most > 0) {
        credit(ee, CREDIT_COUNTERS.unansweredRequests, 1);
        credit(ee, CREDIT_COUNTERS.unansweredMax, most);
      }
      if (info.measured) count(ee, t, "failed");
      next();
    },
    /** The scenario's setup steps, once per load generator; their captures become every user's variables. */
    async plumblineSetup(context: Context, ee: Events) {
      prime(ee);
      if (!setupDone) {
        setupDone = runSetup(String(context.vars.target ?? plan.target), ee);
        setupDone.catch(() => {});
      }
      Object.assign(context.vars, await setupDone);
    },
    async plumblineFlowStart(context: Context, ee: Events) {
      prime(ee);
      const f: FlowState = { startedAt: Date.now(), state: "submitting" };
      context.vars.plumbline_flow = f;
      ee.emit("counter", `${flowBase}.started`, 1);
      const submit = rt.template("f0") as RuntimeTemplate;
      context.vars.plumbline_admitted = await room(submit, f.startedAt + (plan.flow?.timeoutMs ?? 0));
    },
    async plumblinePollWait(context: Context) {
      const f = flowOf(context);
      const until = (f?.startedAt ?? 0) + (plan.flow?.timeoutMs ?? 0);
      context.vars.plumbline_admitted =
        f?.state === "running" && (await room(rt.template("p0") as RuntimeTemplate, until));
    },
    plumblineFlowPolling(context: Context, done: (more: boolean) => void) {
      const f = flowOf(context);
      done(!!f && f.state === "running" && Date.now() - f.startedAt < (plan.flow?.timeoutMs ?? 0));
    },
    plumblineZipReady(context: Context, _ee: Events, next: Next) {
      context.vars.plumbline_zip = flowOf(context)?.state === "zip";
      next();
    },
  };
  for (const t of plan.templates)
    fns[`plumblineAdmit_${t.id}`] = (context: Context, ee: Events, next: Next) => {
      prime(ee);
      const template = rt.template(t.id) as RuntimeTemplate;
      const ok = rt.admit(template);
      context.vars.plumbline_admitted = ok;
      if (!ok && rt.measuring()) count(ee, template, "held_back");
      next();
    };

  async function runSetup(target: string, ee: Events): Promise<Record<string, unknown>> {
    const vars: Record<string, unknown> = {};
    for (const step of plan.setup) {
      const t = rt.template(step.id) as RuntimeTemplate;
      const headers: Record<string, string> = { ...step.headers };
      if (step.auth) headers.authorization = `Bearer ${process.env[plan.apiKeyEnv]}`;
      const res = await fetch(`${target}${fill(step.path, vars)}`, {
        method: step.method,
        headers,
        body: step.body === null ? undefined : fill(step.body, vars),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await res.text();
      const verdict = rt.answer(t, res.status, Object.fromEntries(res.headers), body);
      credit(ee, CREDIT_COUNTERS.counted, verdict.credits);
      if (verdict.unexpected || verdict.throttled)
        throw new Error(`plumbline setup ${step.id}: ${step.method} ${step.path} answered ${res.status}`);
      let doc: unknown;
      try {
        doc = JSON.parse(body);
      } catch {
        doc = undefined;
      }
      for (const [name, ptr] of Object.entries(step.capture)) {
        const v = pointer(doc, ptr);
        if (typeof v !== "string" && typeof v !== "number")
          throw new Error(`plumbline setup ${step.id}: nothing to capture at ${ptr} for "${name}"`);
        vars[name] = String(v);
      }
    }
    return vars;
  }

  return fns;
}
