// Setup steps run once before the measured traffic (e.g. start one deepcrawl task whose status is then polled)
// and capture values from their answers into "{{variables}}". Their charges count for the accounting check.
import type { Contract } from "@plumbline-kit/contract";
import { creditsCharged } from "./charge-counter.ts";
import type { Sender } from "./http-send.ts";
import { buildTemplate } from "./request-plan.ts";
import type { SampleRecorder } from "./sample-recorder.ts";
import type { SetupStep } from "./scenario-file.ts";

export type SetupOutcome = { ok: true; vars: Record<string, string> } | { ok: false; error: string };

/** A JSON Pointer into a parsed answer (setup captures; the exported scripts' runtime uses it too). */
export function pointer(doc: unknown, ptr: string): unknown {
  return ptr
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((v, t) => (v && typeof v === "object" ? (v as Record<string, unknown>)[t] : undefined), doc);
}

export async function runSetup(
  steps: SetupStep[],
  ctx: { contract: Contract; sender: Sender; apiKey: string; recorder: SampleRecorder; vars?: Record<string, string> },
): Promise<SetupOutcome> {
  const vars: Record<string, string> = { ...ctx.vars };
  for (const [i, step] of steps.entries()) {
    const built = buildTemplate(step, i, ctx.contract, { apiKey: ctx.apiKey, vars });
    if (!built.ok) return { ok: false, error: `setup[${i}]: ${built.error}` };
    const t = built.template;
    const r = await ctx.sender.send(t, { keepBody: true });
    if (!r.ok) return { ok: false, error: `setup[${i}] ${t.method} ${t.path}: ${r.error}` };
    ctx.recorder.charged(creditsCharged(t, r.status, r.body, ctx.contract));
    if (!t.expect.has(r.status)) return { ok: false, error: `setup[${i}] ${t.method} ${t.path} answered ${r.status}` };
    let doc: unknown;
    try {
      doc = JSON.parse(r.body);
    } catch {
      doc = undefined;
    }
    for (const [name, ptr] of Object.entries(step.capture ?? {})) {
      const v = pointer(doc, ptr);
      if (typeof v !== "string" && typeof v !== "number")
        return { ok: false, error: `setup[${i}]: nothing to capture at ${ptr} for "${name}"` };
      vars[name] = String(v);
    }
  }
  return { ok: true, vars };
}
