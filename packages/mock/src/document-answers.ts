// What the mock answers for an operation of the document it has no synthetic engine for (`plumbline mock --spec`
// with a version of the contract that adds one), as Prism answers every operation: the lowest 2xx response the
// document lists, with the example `Prefer: example=NAME` names, else its first example, else a value generated
// from the schema (seeded: `Prefer: seed=`, `dynamic=true` skips the examples). The call is validated, priced,
// rate-limited and charged like any other, since the platform runs it.

import type { Contract, OperationSpec } from "@plumbline-kit/contract";
import type { EngineContext } from "@plumbline-kit/platform/engines";
import type { Executor } from "@plumbline-kit/platform/operation-executors";
import { createRng } from "./engines/rng.ts";
import { generateValue } from "./engines/schema-value.ts";
import type { SteeringContext } from "./steered-engines.ts";

type Obj = Record<string, unknown>;

/** The media types of a response, JSON first, each with its examples (named, then `example`) and schema. */
function mediaOf(contract: Contract, op: OperationSpec, status: number): Array<[string, Obj]> {
  const item = (contract.document.paths as Obj)[op.path] as Obj;
  const response = ((item[op.method] as Obj).responses as Obj)[String(status)] as Obj | undefined;
  const content = (response?.content ?? {}) as Obj;
  return Object.entries(content)
    .map(([type, media]): [string, Obj] => [type, media as Obj])
    .sort(([a], [b]) => Number(!a.includes("json")) - Number(!b.includes("json")));
}

function examplesOf(media: Obj): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, ex] of Object.entries((media.examples ?? {}) as Obj)) out.set(name, (ex as Obj).value);
  if ("example" in media) out.set("example", media.example);
  return out;
}

export function documentAnswers(contract: Contract): (op: OperationSpec) => Executor {
  return (op) => {
    const status = op.statuses.find((s) => s >= 200 && s < 300) ?? 200;
    const [first] = mediaOf(contract, op, status);
    return async (body, ctx) => {
      const engine = ctx.engine as EngineContext & SteeringContext;
      if (!first) return { ok: true, value: { status, contentType: "application/json", payload: undefined } };
      const [contentType, media] = first;
      const examples = examplesOf(media);
      if (engine.example !== undefined) {
        if (!examples.has(engine.example)) {
          const known = [...examples.keys()].join(", ") || "none";
          return {
            ok: false,
            code: "PLB_BAD_VALUE",
            message: `No example "${engine.example}" for ${op.operationId} (known: ${known})`,
          };
        }
        return { ok: true, value: { status, contentType, payload: structuredClone(examples.get(engine.example)) } };
      }
      if (examples.size > 0 && !engine.dynamic) {
        return { ok: true, value: { status, contentType, payload: structuredClone([...examples.values()][0]) } };
      }
      const rng = createRng(engine.seed, "document", op.operationId, body ?? null);
      const facts = { url: "https://example.com/", title: "Example", site: "example.com", words: ["example"] };
      const payload = generateValue(media.schema ?? {}, { rng, facts, variability: engine.variability });
      return { ok: true, value: { status, contentType, payload } };
    };
  };
}
