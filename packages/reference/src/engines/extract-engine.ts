// POST /extract in the reference (interface-spec "POST /extract"; D-extract-response-format, D-extract-engine):
// the page is fetched through the crawl's guarded client, then `response_format` is filled by a language model when
// one is configured, else by the deterministic extractor (structured data, tables, lists, text). The result is
// validated against the schema before it is returned; one that cannot be made valid fails with a clear 502,
// uncharged, never answered as invalid data. Without a schema, results are the page's main facts, as the mock's.
import type { Schemas } from "@plumbline-kit/contract";
import { createAjv } from "@plumbline-kit/contract/validators";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { unwrapResponseFormat } from "@plumbline-kit/platform/response-format";
import { bodyKind, mediaType, pageBody } from "./content-type.ts";
import { createModelExtractor, type ModelOptions } from "./extract/model-extract.ts";
import { fillSchema } from "./extract/schema-fill.ts";
import type { HttpClient } from "./http-client.ts";
import { createInlineParser, type PageParser } from "./parse/parse-pool.ts";
import { fetchFailure, statusFailure } from "./target-failure.ts";

export interface ExtractEngineOptions {
  http: HttpClient;
  /** an OpenAI-compatible chat-completions endpoint; absent: the deterministic extractor */
  model?: ModelOptions | null;
  /** where the page is parsed: the reference's worker pool, with its caps (issue 38); in this thread when absent */
  parser?: PageParser;
}

type Result = EngineResult<Schemas["ExtractResponse"]>;
type Schema = Record<string, unknown>;

const ACCEPT = "text/html,application/xhtml+xml;q=0.9,text/*;q=0.8,application/json;q=0.7";

export function createExtractEngine(o: ExtractEngineOptions) {
  const ajv = createAjv();
  const model = o.model ? createModelExtractor(o.model) : null;
  const parser = o.parser ?? createInlineParser();

  function compile(schema: Schema): ((v: unknown) => string | null) | null {
    try {
      // `$schema` naming another draft and an absolute `$id` only make ajv refuse or collide (as in the mock)
      const { $schema, $id, ...body } = schema;
      const validate = ajv.compile(body);
      return (v) =>
        validate(v) ? null : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
    } catch {
      return null;
    }
  }

  const ok = (url: string, results: unknown): Result => ({
    ok: true,
    value: { success: true, extractParameters: { url }, results },
  });

  return async (request: Schemas["ExtractRequest"], ctx: EngineContext): Promise<Result> => {
    const fetched = await o.http.fetch(request.url, { signal: ctx.signal, accept: ACCEPT });
    if (!fetched.ok) return fetchFailure(fetched);
    const res = fetched.value;
    // extract lists neither 404 nor 410: any target failure is the upstream's (502), as for /sitemap
    if (res.status >= 300) return statusFailure(res.status, res.url, "sitemap");
    const type = mediaType(res.headers["content-type"]);
    const kind = bodyKind(type, res.body);
    if (kind === "binary") {
      return {
        ok: false,
        code: "PLB_BAD_VALUE",
        message: `The target ${res.url} is ${type || "binary data"}, not a page`,
      };
    }
    const schema = unwrapResponseFormat(request.response_format) as Schema | null;
    const validate = schema === null ? null : compile(schema);
    if (schema !== null && !validate) {
      return { ok: false, code: "PLB_BAD_VALUE", message: "response_format is not a JSON Schema that can be compiled" };
    }
    // decoded, guarded and read in the parse pool (issue 38): a page past the caps of D-parse-limits is refused
    // (502, uncharged) as /crawl refuses it, and the event loop only hands over the bytes
    const read = await parser.facts(pageBody(res, type, kind), Boolean(model && schema !== null), ctx.signal);
    if (!read.ok) return read;
    const { facts } = read.value;
    if (schema === null || !validate) {
      return ok(request.url, { title: facts.title, description: facts.description, url: request.url });
    }
    if (model) {
      const answer = await model(
        { url: res.url, title: facts.title, text: read.value.markdown ?? "" },
        request.prompt,
        schema,
        validate,
        ctx.signal,
      );
      return answer.ok ? ok(request.url, answer.value) : answer;
    }
    const results = fillSchema(schema, facts, request.prompt ?? "");
    const problem = results === undefined ? "the page states nothing the schema asks for" : validate(results);
    if (problem !== null) {
      return {
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
        message: `The page does not state what response_format asks for (${problem}); configure a model for free-form extraction`,
      };
    }
    return ok(request.url, results);
  };
}
