// The code of an exported k6 script (bundled into NAME.k6.js with its plan and options): each iteration is one
// arrival of the scenario (a weighted pick of its requests, or one deepcrawl flow from submit to its zip), judged by
// the runtime plumbline load uses and recorded as k6 metrics (metric-names.ts) that the script's `thresholds` read.
// The k6 modules are handed in by the script's own imports, so this file has no k6 types to depend on.
// k6 runs each VU in its own JavaScript runtime: the limiter of one VU learns the target's windows from the RateLimit
// headers of its own answers only (what cannot be shared is said in docs/load-export.md).
import type { ExportPlan, PlanTemplate } from "../export-plan.ts";
import { CREDIT_COUNTERS, K6, k6Credit } from "../metric-names.ts";
import { createRuntime, fill, jsonField, pointer, type RuntimeTemplate } from "./engine-runtime.ts";

interface K6Response {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  timings: { duration: number };
}
interface K6Metric {
  add(value: number, tags?: Record<string, string>): void;
}
export interface K6Modules {
  http: {
    request(method: string, url: string, body: string | null, params: Record<string, unknown>): K6Response;
  };
  sleep(seconds: number): void;
  Counter: new (name: string) => K6Metric;
  Rate: new (name: string) => K6Metric;
  Trend: new (name: string, isTime?: boolean) => K6Metric;
  exec: { scenario: { startTime: number } };
  env: Record<string, string | undefined>;
}

export interface K6Entry {
  setup(): Record<string, unknown>;
  requests(data: Record<string, unknown>): void;
  flow(data: Record<string, unknown>): void;
}

const FLOW_TAGS = { window: "measured" };

export function k6Script(plan: ExportPlan, k6: K6Modules): K6Entry {
  const rt = createRuntime(plan);
  const m = {
    latency: new k6.Trend(K6.latency, true),
    errors: new k6.Rate(K6.errors),
    answers: new k6.Counter(K6.answers),
    throttled: new k6.Counter(K6.throttled),
    heldBack: new k6.Counter(K6.heldBack),
    flowTime: new k6.Trend(K6.flowTime, true),
    flowErrors: new k6.Rate(K6.flowErrors),
    flowCompleted: new k6.Counter(K6.flowCompleted),
    zipTime: new k6.Trend(K6.zipTime, true),
    counted: new k6.Counter(k6Credit(CREDIT_COUNTERS.counted)),
    unansweredRequests: new k6.Counter(k6Credit(CREDIT_COUNTERS.unansweredRequests)),
    unansweredMax: new k6.Counter(k6Credit(CREDIT_COUNTERS.unansweredMax)),
  };
  const key = k6.env[plan.apiKeyEnv] ?? "";
  const base = (k6.env.PLUMBLINE_TARGET ?? plan.target).replace(/\/$/, "");
  const total = plan.templates.reduce((s, t) => s + t.weight, 0);
  const measuring = () => Date.now() - k6.exec.scenario.startTime >= plan.phases.warmupSeconds * 1000;

  function send(p: PlanTemplate, vars: Record<string, unknown>): K6Response {
    const headers: Record<string, string> = { ...p.headers };
    if (p.auth) headers.authorization = `Bearer ${key}`;
    return k6.http.request(p.method, `${base}${fill(p.path, vars)}`, p.body === null ? null : fill(p.body, vars), {
      headers,
      tags: { name: p.id },
      timeout: "10s",
      responseType: "text",
    });
  }

  /**
   * One request, judged and recorded; the answer, or null when it was held back or never answered. `admitted`: the
   * limiter already gave it room (a flow waits for room instead of being held back).
   */
  function exchange(p: PlanTemplate, vars: Record<string, unknown>, admitted = false): K6Response | null {
    const t = rt.template(p.id) as RuntimeTemplate;
    const tags = { op: t.operationId, window: measuring() ? "measured" : "warmup" };
    if (!admitted && !rt.admit(t)) {
      m.heldBack.add(1, tags);
      return null;
    }
    const res = send(p, vars);
    if (res.status === 0) {
      const most = rt.unanswered(t);
      if (most > 0) {
        m.unansweredRequests.add(1);
        m.unansweredMax.add(most);
      }
      m.errors.add(1, tags);
      return null;
    }
    const body = typeof res.body === "string" ? res.body : "";
    const v = rt.answer(t, res.status, res.headers, body);
    if (v.credits) m.counted.add(v.credits);
    m.answers.add(1, tags);
    m.errors.add(v.unexpected ? 1 : 0, tags);
    if (v.throttled) m.throttled.add(1, tags);
    else m.latency.add(res.timings.duration, tags);
    return res;
  }

  /** Waits (bounded) for room in the target's limits before a flow's request: a client polls slower. */
  function waitForRoom(p: PlanTemplate, until: number): boolean {
    const t = rt.template(p.id) as RuntimeTemplate;
    while (!rt.admit(t)) {
      if (Date.now() >= until) return false;
      k6.sleep(0.1);
    }
    return true;
  }

  return {
    setup() {
      const vars: Record<string, unknown> = {};
      for (const step of plan.setup) {
        const t = rt.template(step.id) as RuntimeTemplate;
        const res = send(step, vars);
        const body = typeof res.body === "string" ? res.body : "";
        const v = rt.answer(t, res.status, res.headers, body);
        if (v.credits) m.counted.add(v.credits);
        if (res.status === 0 || v.unexpected || v.throttled)
          throw new Error(`plumbline setup ${step.id}: ${step.method} ${step.path} answered ${res.status}`);
        let doc: unknown;
        try {
          doc = JSON.parse(body);
        } catch {
          doc = undefined;
        }
        for (const [name, ptr] of Object.entries(step.capture)) vars[name] = String(pointer(doc, ptr));
      }
      return vars;
    },
    requests(data) {
      // a weighted pick, as Artillery picks a scenario by weight
      let r = Math.random() * total;
      let p = plan.templates[plan.templates.length - 1];
      for (const t of plan.templates) {
        r -= t.weight;
        if (r < 0) {
          p = t;
          break;
        }
      }
      exchange(p, data ?? {});
    },
    flow() {
      const flow = plan.flow;
      if (!flow) return;
      const started = Date.now();
      const until = started + flow.timeoutMs;
      const end = (completed: boolean) => {
        m.flowErrors.add(completed ? 0 : 1, FLOW_TAGS);
        if (completed) m.flowCompleted.add(1, FLOW_TAGS);
      };
      if (!waitForRoom(flow.submit, until)) return end(false);
      const submitted = exchange(flow.submit, {}, true);
      const taskId = submitted?.status === 202 ? jsonField(String(submitted.body), "taskId") : undefined;
      if (typeof taskId !== "string") return end(false);
      while (Date.now() < until) {
        k6.sleep(flow.pollIntervalMs / 1000);
        if (!waitForRoom(flow.poll, until)) break;
        const res = exchange(flow.poll, { taskId }, true);
        if (!res) continue;
        const status =
          res.status === 200 ? jsonField(String(res.body), "status") : res.status === 404 ? "failed" : null;
        if (status === "failed") return end(false);
        if (status !== "completed") continue;
        m.flowTime.add(Date.now() - started, FLOW_TAGS);
        const zipUrl = jsonField(String(res.body), "zipUrl");
        if (typeof zipUrl !== "string") return end(true);
        const zip = k6.http.request("GET", zipUrl, null, {
          tags: { name: "z0" },
          timeout: "60s",
          responseType: "none",
        });
        if (zip.status === 200) m.zipTime.add(zip.timings.duration, FLOW_TAGS);
        return end(zip.status === 200);
      }
      end(false);
    },
  };
}
