// Submit-then-poll deepcrawl: what a client waits for is the task reaching `completed`, not one request's
// latency. Each flow posts /deepcrawl, polls its status (free, safe to repeat) until a terminal state, and
// records the time from submit to the poll that saw `completed`. Closed loop: `connections` users, each
// starting its next flow when the last ends; open loop: flows start at `rate` per second.
import type { Contract } from "@plumbline-kit/contract";
import { creditsCharged } from "./charge-counter.ts";
import { DRAIN_LIMIT_SECONDS } from "./closed-loop.ts";
import { createSender, type Sender, type SendResult } from "./http-send.ts";
import type { Limiter } from "./rate-limits.ts";
import { buildTemplate, type RequestTemplate } from "./request-plan.ts";
import type { SampleRecorder } from "./sample-recorder.ts";
import type { FlowSpec } from "./scenario-file.ts";

export interface FlowInput {
  url: URL;
  contract: Contract;
  recorder: SampleRecorder;
  apiKey: string;
  flow: FlowSpec;
  /** "{{name}}" values for the submitted body (`fixture`) */
  vars?: Record<string, string>;
  durationSeconds: number;
  connections: number;
  rate: number | null;
  /** the target's limits: each request of a flow waits for room in its windows (a client polls slower) */
  limiter?: Limiter;
}

const FLOW = "deepcrawl";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function field(body: string, name: string): string | undefined {
  try {
    const v = (JSON.parse(body) as Record<string, unknown>)[name];
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A flow's request, once the target's limits have room for it; null when the run ended while waiting. */
async function paced(sender: Sender, t: RequestTemplate, input: FlowInput, hardEnd: number) {
  const limiter = input.limiter;
  while (limiter && !limiter.admit(t)) {
    if (performance.now() >= hardEnd) return null;
    await sleep(100);
  }
  const r: SendResult = await sender.send(t, { keepBody: true });
  if (!limiter) return { r, throttled: false };
  if (!r.ok) {
    limiter.unanswered(t);
    return { r, throttled: false };
  }
  return { r, throttled: limiter.answered(t, r.status, r.headers).throttled };
}

async function oneFlow(sender: Sender, submit: RequestTemplate, input: FlowInput, hardEnd: number): Promise<void> {
  const { recorder, contract } = input;
  const pollMs = input.flow.pollIntervalMs ?? 250;
  const timeoutMs = input.flow.timeoutMs ?? 60_000;
  recorder.flowStarted(FLOW);
  const started = performance.now();
  const first = await paced(sender, submit, input, hardEnd);
  if (!first) return;
  const r = first.r;
  if (!r.ok) return recorder.failure(submit, r.sent);
  recorder.response(
    submit,
    r.status,
    r.ms,
    creditsCharged(submit, r.status, r.body, contract),
    undefined,
    first.throttled,
  );
  const taskId = r.status === 202 ? field(r.body, "taskId") : undefined;
  if (!taskId) return recorder.flowEnded(FLOW, "failed", 0, 0);
  const poll = buildTemplate({ operation: "deepcrawlStatus", params: { taskId } }, -1, contract, {
    apiKey: input.apiKey,
  });
  if (!poll.ok) return recorder.flowEnded(FLOW, "failed", 0, 0);
  let polls = 0;
  // unfinished flows at the deadline simply stop: started − completed − failed counts them as incomplete
  while (performance.now() - started < timeoutMs && performance.now() < hardEnd) {
    await sleep(pollMs);
    const answer = await paced(sender, poll.template, input, hardEnd);
    if (!answer) break;
    const s = answer.r;
    polls++;
    if (!s.ok) {
      recorder.failure(poll.template, s.sent);
      continue;
    }
    recorder.response(poll.template, s.status, s.ms, 0, undefined, answer.throttled);
    const status = s.status === 200 ? field(s.body, "status") : s.status === 404 ? "not_found" : undefined;
    if (status === "completed") return recorder.flowEnded(FLOW, "completed", performance.now() - started, polls);
    if (status === "failed" || status === "not_found") return recorder.flowEnded(FLOW, "failed", 0, polls);
  }
}

export async function runDeepcrawlFlows(input: FlowInput): Promise<{ ok: true } | { ok: false; error: string }> {
  const submitBuild = buildTemplate(
    { operation: "deepcrawl", example: input.flow.example, body: input.flow.example ? undefined : input.flow.body },
    0,
    input.contract,
    { apiKey: input.apiKey, vars: input.vars },
  );
  if (!submitBuild.ok) return { ok: false, error: `flow: ${submitBuild.error}` };
  const submit = submitBuild.template;
  const sender = createSender(input.url, input.connections * 2);
  const start = performance.now();
  const end = start + input.durationSeconds * 1000;
  const hardEnd = end + DRAIN_LIMIT_SECONDS * 1000;
  const flows = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    flows.add(p);
    p.finally(() => flows.delete(p));
  };
  if (input.rate) {
    const interval = 1000 / input.rate;
    for (let n = 0; start + n * interval < end; n++) {
      await sleep(Math.max(0, start + n * interval - performance.now()));
      track(oneFlow(sender, submit, input, hardEnd));
    }
  } else {
    const user = async () => {
      while (performance.now() < end) await oneFlow(sender, submit, input, hardEnd);
    };
    for (let i = 0; i < input.connections; i++) track(user());
  }
  await Promise.all(flows);
  await sender.close();
  return { ok: true };
}
