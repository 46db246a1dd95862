// Closed loop on autocannon: N connections, each sends its next request when the previous answer arrives.
// Shows the most a target can serve; it cannot show queueing delay (coordinated omission): see open-loop.ts.
import type { EventEmitter } from "node:events";
import type { Contract } from "@plumbline-kit/contract";
import autocannon from "autocannon";
import { creditsCharged, needsBody } from "./charge-counter.ts";
import type { CreditCap } from "./credit-cap.ts";
import type { Limiter } from "./rate-limits.ts";
import type { RequestPlan, RequestTemplate } from "./request-plan.ts";
import type { SampleRecorder } from "./sample-recorder.ts";
import { createPicker } from "./weighted-picker.ts";

export interface DriverInput {
  url: URL;
  plan: RequestPlan;
  contract: Contract;
  recorder: SampleRecorder;
  durationSeconds: number;
  /** unmeasured seconds first (JIT, caches, connections); their charges still count for the accounting */
  warmupSeconds: number;
  connections: number;
  seed: number;
  /** the target's limits to keep under (rate-limits.ts): the open loop and the deepcrawl flows; absent: none */
  limiter?: Limiter;
  /** the most the run may spend (credit-cap.ts); absent: no cap */
  creditCap?: CreditCap;
  /** arrivals held back, by what held them */
  holds?: { limits: number; credits: number };
}

/** How long answers to requests sent before the deadline are awaited (also autocannon's request timeout). */
export const DRAIN_LIMIT_SECONDS = 10;

interface InFlight {
  template: RequestTemplate;
  credits: number;
  sentAt: number;
}

type Ctx = { entry?: InFlight };

const closes = (headers: Record<string, unknown> = {}) =>
  Object.entries(headers).some(([k, v]) => k.toLowerCase() === "connection" && String(v).toLowerCase() === "close");

export function runClosedLoop(input: DriverInput): Promise<void> {
  const { plan, contract, recorder } = input;
  const pick = createPicker(plan, input.seed);
  const inFlight = new Set<InFlight>();
  let draining = false;
  // Requests that must not be paid ones: after a `Connection: close` answer autocannon writes the next request
  // on the closing socket, where it is lost. That request is made a free health check instead. The answer
  // handler and the next setupRequest run synchronously one after the other for the same connection.
  let sacrifice = 0;

  /** A free GET /health in place of a request this connection must not send now. */
  const healthPath = `${input.url.pathname.replace(/\/$/, "")}/health`;
  const healthCheck = (req: autocannon.Request): autocannon.Request => ({
    ...req,
    method: "GET",
    path: healthPath,
    headers: {},
    body: undefined,
  });
  const request: autocannon.Request = {
    setupRequest(req, context) {
      const ctx = context as Ctx;
      // After the deadline connections keep busy with free health checks, so that no paid request is cut off
      // mid-flight by autocannon's stop: the accounting check then knows the fate of every paid call.
      if (draining || sacrifice > 0) {
        if (sacrifice > 0) sacrifice--;
        ctx.entry = undefined;
        return healthCheck(req);
      }
      const template = pick();
      if (input.creditCap && !input.creditCap.admit(template)) {
        // over the credit budget: this connection sends a free health check instead
        if (input.holds) input.holds.credits++;
        recorder.heldBack(template);
        ctx.entry = undefined;
        return healthCheck(req);
      }
      // timed here, not by autocannon: its per-connection queue keeps a lost request after a reconnect and from
      // then on times each answer from the previous request's start. setupRequest runs just before the write.
      const entry: InFlight = { template, credits: 0, sentAt: performance.now() };
      inFlight.add(entry);
      ctx.entry = entry;
      return {
        ...req,
        method: template.method as autocannon.Request["method"],
        path: `${input.url.pathname.replace(/\/$/, "")}${template.path}`,
        headers: template.headers,
        body: template.body,
      };
    },
    onResponse(status, body, context, headers) {
      if (closes(headers as Record<string, unknown>)) sacrifice++;
      const entry = (context as Ctx).entry;
      if (entry) {
        entry.credits = creditsCharged(entry.template, status, needsBody(entry.template, status) ? body : "", contract);
        input.creditCap?.settled(entry.template, entry.credits);
      }
    },
  };

  return new Promise((resolve, reject) => {
    let drainTimer: NodeJS.Timeout | undefined;
    const instance = autocannon(
      {
        url: input.url.origin,
        connections: input.connections,
        // a hard bound only: the run normally stops once drained (below)
        duration: input.warmupSeconds + input.durationSeconds + DRAIN_LIMIT_SECONDS + 2,
        timeout: DRAIN_LIMIT_SECONDS,
        sampleInt: 100,
        requests: [request],
      },
      (err) => {
        clearTimeout(deadline);
        clearTimeout(warm);
        clearTimeout(drainTimer);
        clearInterval(drainPoll);
        for (const entry of inFlight) recorder.failure(entry.template, true);
        if (err) reject(err);
        else resolve();
      },
    );
    (instance as unknown as EventEmitter).on(
      "response",
      (client: { requestIterator: { context: Ctx } }, status: number) => {
        const ctx = client.requestIterator.context;
        const entry = ctx.entry;
        if (!entry) return;
        ctx.entry = undefined;
        inFlight.delete(entry);
        recorder.response(entry.template, status, performance.now() - entry.sentAt, entry.credits);
      },
    );
    let drainPoll: NodeJS.Timeout | undefined;
    if (input.warmupSeconds > 0) recorder.warmUp();
    const warm = setTimeout(() => recorder.begin(), input.warmupSeconds * 1000);
    const deadline = setTimeout(
      () => {
        draining = true;
        drainTimer = setTimeout(() => instance.stop(), DRAIN_LIMIT_SECONDS * 1000);
        drainPoll = setInterval(() => {
          if (inFlight.size === 0) instance.stop();
        }, 20);
      },
      (input.warmupSeconds + input.durationSeconds) * 1000,
    );
  });
}
