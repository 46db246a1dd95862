// Synthetic /extract (interface-spec, POST /extract; D-extract-response-format): `results` is generated from
// the unwrapped response_format schema and checked with the contract's ajv setup before it is returned (a few
// seeded attempts, since oneOf overlaps or `not` can defeat one draw); a schema no attempt satisfies (`false`,
// a pattern outside schema-pattern.ts's subset) fails as PLB_UPSTREAM_FAILED, as a real extraction model that
// cannot produce the asked shape would, rather than answering a body that breaks the decision. Without a
// schema, results is the page's main facts: { title, description, url }.

import type { Schemas } from "@plumbline-kit/contract";
import { createAjv } from "@plumbline-kit/contract/validators";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { unwrapResponseFormat } from "@plumbline-kit/platform/response-format";
import { createRng } from "./rng.ts";
import { generateValue } from "./schema-value.ts";
import { sitePage } from "./site-page.ts";
import { stableJson } from "./stable-json.ts";
import { targetFailure } from "./target-status.ts";
import { urlWords } from "./text.ts";

const ATTEMPTS = 8;
const CACHE_SIZE = 64;

type Check = (value: unknown) => boolean;

export function createExtractEngine() {
  const ajv = createAjv();
  const compiled = new Map<string, Check | null>();

  function checker(schema: object): Check | null {
    const key = stableJson(schema);
    if (!compiled.has(key)) {
      if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
      let check: Check | null = null;
      try {
        // `$schema` naming another draft and an absolute `$id` only make ajv refuse or collide; local refs
        // resolve the same without them
        const { $schema, $id, ...body } = schema as Record<string, unknown>;
        const validate = ajv.compile(body);
        check = (v) => validate(v) === true;
      } catch {
        check = null; // a schema ajv cannot compile is generated for as written, unchecked
      }
      compiled.set(key, check);
    }
    return compiled.get(key) ?? null;
  }

  return async (
    request: Schemas["ExtractRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<Schemas["ExtractResponse"]>> => {
    const failure = targetFailure("extract", request.url);
    if (failure) return failure;
    const page = sitePage(ctx.seed, request.url);
    const facts = { url: request.url, title: page.title, site: page.siteName, words: urlWords(request.url) };
    const schema = unwrapResponseFormat(request.response_format);
    let results: unknown = { title: page.title, description: page.description, url: request.url };
    if (schema !== null) {
      const check = checker(schema);
      let valid = false;
      for (let attempt = 0; attempt < ATTEMPTS && !valid; attempt++) {
        const rng = createRng(ctx.seed, "extract", request, attempt);
        results = generateValue(schema, { rng, facts, variability: ctx.variability });
        valid = results !== undefined && (check === null || check(results));
      }
      if (!valid) {
        return { ok: false, code: "PLB_UPSTREAM_FAILED", message: "No value satisfies the response_format schema" };
      }
    }
    return { ok: true, value: { success: true, extractParameters: { url: request.url }, results } };
  };
}
