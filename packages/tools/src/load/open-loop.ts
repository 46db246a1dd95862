// Open loop: requests arrive on a fixed schedule (every 1/rate s) whether or not earlier ones were answered,
// and latency is measured from the scheduled arrival, not from the send (wrk2's correction). A slow target
// therefore shows its queueing delay instead of quietly slowing the load down (coordinated omission).
// autocannon's overallRate is a per-connection quota per second, sent in bursts, so it is not used here.
import { creditsCharged, needsBody } from "./charge-counter.ts";
import type { DriverInput } from "./closed-loop.ts";
import { DRAIN_LIMIT_SECONDS } from "./closed-loop.ts";
import { createSender } from "./http-send.ts";
import { createPicker } from "./weighted-picker.ts";

export interface OpenLoopInput extends DriverInput {
  /** arrivals per second */
  rate: number;
}

/** Arrivals waiting for a socket beyond this many seconds of traffic are counted as failures, not queued. */
const BACKLOG_SECONDS = 5;

export async function runOpenLoop(input: OpenLoopInput): Promise<void> {
  const { plan, contract, recorder, rate } = input;
  const pick = createPicker(plan, input.seed);
  const sender = createSender(input.url, input.connections);
  const maxOutstanding = Math.max(input.connections, Math.ceil(rate * BACKLOG_SECONDS));
  const pending = new Set<Promise<void>>();
  const start = performance.now();
  const end = start + (input.warmupSeconds + input.durationSeconds) * 1000;
  if (input.warmupSeconds > 0) recorder.warmUp();
  const warm = setTimeout(() => recorder.begin(), input.warmupSeconds * 1000);
  const interval = 1000 / rate;
  // The warm-up ramps the rate up linearly (rate·t/W) instead of starting cold at full rate: a cold client and
  // target would otherwise build a backlog that spills into the measured window.
  const rampMs = input.warmupSeconds * 1000;
  const rampArrivals = (rate * input.warmupSeconds) / 2;
  const scheduledAt = (n: number) =>
    n < rampArrivals
      ? start + 1000 * Math.sqrt((2 * input.warmupSeconds * n) / rate)
      : start + rampMs + (n - rampArrivals) * interval;
  let issued = 0;

  const { limiter, creditCap: cap } = input;
  const arrive = (at: number) => {
    const template = pick();
    if (pending.size >= maxOutstanding) {
      recorder.failure(template, false);
      return;
    }
    // held back, not sent: the credit budget, or a window of the target's limits, has no room for it
    if (cap && !cap.admit(template)) {
      if (input.holds) input.holds.credits++;
      return recorder.heldBack(template);
    }
    if (limiter && !limiter.admit(template)) {
      cap?.settled(template, 0);
      if (input.holds) input.holds.limits++;
      return recorder.heldBack(template);
    }
    const p = sender
      .send(template, { keepBody: template.batch })
      .then((r) => {
        if (!r.ok) {
          limiter?.unanswered(template);
          cap?.settled(template, r.sent ? template.maxCredits : 0);
          return recorder.failure(template, r.sent);
        }
        const { throttled } = limiter?.answered(template, r.status, r.headers) ?? { throttled: false };
        const credits = creditsCharged(template, r.status, needsBody(template, r.status) ? r.body : "", contract);
        cap?.settled(template, credits);
        const done = r.sentAt + r.ms;
        recorder.response(template, r.status, done - at, credits, r.ms, throttled);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  };

  // Timers fire late and coarse; each tick sends every arrival that is due, each keeping its own scheduled time.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = Math.min(performance.now(), end);
      while (scheduledAt(issued) <= now && scheduledAt(issued) < end) {
        arrive(scheduledAt(issued));
        issued++;
      }
      if (performance.now() >= end) resolve();
      else setTimeout(tick, Math.max(0, Math.min(interval, 5) - 1));
    };
    tick();
  });

  const drained = Promise.all(pending);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise((r) => (timer = setTimeout(r, DRAIN_LIMIT_SECONDS * 1000)))]);
  clearTimeout(timer);
  clearTimeout(warm);
  // still unanswered at the drain limit: abort them; their failure is recorded by their own promise
  await sender.close();
  await drained;
}
