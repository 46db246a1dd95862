// Valid and invalid cases of an operation with a JSON body: the body from the request schema (single or batch),
// and the same with exactly one labelled violation of a field, of a batch entry, or of the body as a whole
// (issue 6 "Invalid-input arbitraries"; D-validation-status, D-batch-limits).

import type { JsonSchema, OperationSpec } from "@plumbline-kit/contract";
import { arrayBranch, objectBranch } from "@plumbline-kit/contract/bounds";
import fc from "fast-check";
import type { FuzzCase } from "../fuzz-case.ts";
import { type FixtureSite, statusesIn } from "../http/fixture-site.ts";
import { label, shapeViolation, violationOf } from "./case-labels.ts";
import { fixtureUriArbitrary } from "./fixture-uri.ts";
import { setAt, valuesAt } from "./json-pointer.ts";
import type { OperationCases } from "./operation-cases.ts";
import { compileSchema } from "./schema-arbitrary.ts";
import { type Violation, violationSlots } from "./violation-slots.ts";

/** Cases of an operation with a JSON request body; with a fixture site, its URLs are the site's. */
export function bodyCases(op: OperationSpec, ascii: boolean, site: FixtureSite | null = null): OperationCases {
  const schema = op.requestSchema as JsonSchema;
  const single = objectBranch(op) as JsonSchema;
  const batch = arrayBranch(op);
  const examples = Object.values(op.requestExamples);
  const ctx = {
    samples: (p: string) => valuesAt(examples, p),
    ascii,
    uri: site ? (min: number, max: number | undefined) => fixtureUriArbitrary(site, op, min, max) : undefined,
    realPages: site !== null,
  };
  const post = (body: unknown, violation: Violation | null = null, raw?: { text: string; type?: string }) => ({
    operationId: op.operationId,
    request: raw
      ? { method: "POST" as const, path: op.path, rawBody: raw.text, contentType: raw.type }
      : { method: "POST" as const, path: op.path, body },
    violation,
  });
  const validBody = compileSchema(schema, ctx);
  const validSingle = compileSchema(single, ctx);
  const slots = violationSlots(single);

  const inSingle = fc
    .tuple(validSingle, fc.constantFrom(...slots))
    .chain(([body, s]) =>
      s.draw.map(({ pointer, value }) => post(setAt(body, single, pointer, value), violationOf(s, pointer, value))),
    );
  const variants: fc.Arbitrary<FuzzCase>[] = [inSingle, inSingle, inSingle];
  variants.push(
    fc
      .constantFrom("a string", 42, null, true)
      .map((v) => post(v, { ...shapeViolation("not-an-object"), label: label("not-an-object", null, v) })),
    fc.constant(post([], shapeViolation("empty-batch"))),
    validBody.chain((body) =>
      malformed(JSON.stringify(body)).map((text) => post(undefined, shapeViolation("malformed-json"), { text })),
    ),
    validBody.map((body) =>
      post(undefined, shapeViolation("wrong-content-type", null, op.statuses.includes(415) ? 415 : 400), {
        text: JSON.stringify(body),
        type: "text/plain",
      }),
    ),
  );
  if (batch && op.batchMax !== null) {
    const max = op.batchMax;
    const entries = fc.array(validSingle, { minLength: 1, maxLength: 4 });
    variants.push(
      fc.tuple(entries, fc.constantFrom(...slots), fc.nat()).chain(([list, s, at]) =>
        s.draw.map(({ pointer, value }) => {
          const i = at % list.length;
          const body = list.map((e, j) => (j === i ? setAt(e, single, pointer, value) : e));
          return post(body, violationOf(s, `/${i}${pointer}`, value));
        }),
      ),
      // the count is the violation: a few generated entries cycled up to max + 1 keep the case cheap to build
      fc
        .array(validSingle, { minLength: 1, maxLength: 3 })
        .map((list) => Array.from({ length: max + 1 }, (_, i) => list[i % list.length]))
        .map((list) =>
          post(list, { ...shapeViolation("oversized-batch", "maxItems", 422), label: `oversized-batch of ${max + 1}` }),
        ),
    );
  } else {
    // an array where only the object form exists: a type violation of the body itself (spec/validators.ts)
    variants.push(validSingle.map((b) => post([b], shapeViolation("wrong-type", "type", 422))));
  }
  const valid = validBody.map(
    (body): FuzzCase => (site ? { ...post(body), fetched: statusesIn(site, body) } : post(body)),
  );
  return { operationId: op.operationId, valid, invalid: fc.oneof(...variants) };
}

/** JSON text that no longer parses: truncated, a junk tail, a missing quote, a trailing comma. */
function malformed(text: string): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((n) => text.slice(0, n)),
      fc.constantFrom("}", ",", "x", "]").map((junk) => text + junk),
      fc.constant(text.replace('"', "")),
      fc.constant(text.replace(/([}\]])$/, ",$1")),
    )
    .filter((t) => !parses(t));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
