// /extract with a language model (issue 14): any OpenAI-compatible chat-completions endpoint with JSON-schema
// structured output. The page text and the prompt go in, the response_format schema constrains the answer. Long
// pages are cut to a token budget. The endpoint's key goes in the Authorization header only: it appears in no
// message, log line or error. Failures are values: a slow, failing or nonsensical model is a 502 (extract lists
// no 504), uncharged (D-charging).
import type { EngineResult } from "@plumbline-kit/platform/engines";
import { BodyTooLargeError, bytesCap, readResponseBody } from "../response-body.ts";

/** A chat completion's answer is read up to this many bytes (max_tokens keeps a real one far smaller): past it, a 502. */
export const MODEL_MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export interface ModelOptions {
  /** the API base, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; /chat/completions is appended */
  url: string;
  model: string;
  apiKey?: string;
  /** the whole call, retry included (default 60 s) */
  timeoutMs?: number;
  /** page text sent at most, in tokens, estimated at 4 characters each (default 8000) */
  maxInputTokens?: number;
  maxOutputTokens?: number;
}

export interface ModelPage {
  url: string;
  title: string;
  text: string;
}

type Schema = Record<string, unknown>;

const SYSTEM =
  "You extract structured data from one web page. Answer with JSON that matches the given JSON Schema, using only " +
  "facts the page states. Leave out optional fields the page does not state.";

/** Structured output wants an object at the root: anything else travels wrapped in `{ result }`. */
function rootObject(schema: Schema): { schema: Schema; wrapped: boolean } {
  if (schema.type === "object") return { schema, wrapped: false };
  return { schema: { type: "object", properties: { result: schema }, required: ["result"] }, wrapped: true };
}

export function pageForModel(page: ModelPage, maxInputTokens: number): string {
  const budget = maxInputTokens * 4;
  const text = page.text.length > budget ? `${page.text.slice(0, budget)}\n\n[page truncated]` : page.text;
  return `Page URL: ${page.url}\nPage title: ${page.title}\n\nPage content (Markdown):\n${text}`;
}

export function createModelExtractor(o: ModelOptions) {
  const endpoint = `${o.url.replace(/\/+$/, "")}/chat/completions`;
  const fail = (message: string) => ({ ok: false as const, code: "PLB_UPSTREAM_FAILED" as const, message });

  async function complete(messages: unknown[], schema: Schema, signal: AbortSignal) {
    const res = await fetch(endpoint, {
      method: "POST",
      signal,
      headers: {
        "content-type": "application/json",
        ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: o.model,
        temperature: 0,
        max_tokens: o.maxOutputTokens ?? 2048,
        messages,
        response_format: { type: "json_schema", json_schema: { name: "extraction", schema, strict: false } },
      }),
    });
    // the body of a refusal may echo request headers: only its status is reported (and it is not read)
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return fail(`The extraction model answered ${res.status}`);
    }
    let text: string;
    try {
      text = (await readResponseBody(res, MODEL_MAX_ANSWER_BYTES)).toString("utf8");
    } catch (err) {
      if (err instanceof BodyTooLargeError)
        return fail(`The extraction model answered more than ${bytesCap(MODEL_MAX_ANSWER_BYTES)}, this service's cap`);
      throw err;
    }
    type Completion = { choices?: Array<{ message?: { content?: string | null; refusal?: string | null } }> };
    let body: Completion | null;
    try {
      body = JSON.parse(text) as Completion;
    } catch {
      body = null;
    }
    const message = body?.choices?.[0]?.message;
    if (message?.refusal) return fail("The extraction model refused the request");
    if (typeof message?.content !== "string") return fail("The extraction model gave no answer");
    try {
      return { ok: true as const, value: JSON.parse(message.content) as unknown, raw: message.content };
    } catch {
      return fail("The extraction model's answer is not JSON");
    }
  }

  /**
   * The model's answer for `schema`, checked with `validate`; one retry tells the model what was wrong. An answer
   * that still does not validate is a failure, never returned.
   */
  return async function extract(
    page: ModelPage,
    prompt: string | undefined,
    schema: Schema,
    validate: (value: unknown) => string | null,
    outer?: AbortSignal,
  ): Promise<EngineResult<unknown>> {
    const timeoutMs = o.timeoutMs ?? 60_000;
    const signal = outer ? AbortSignal.any([outer, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    const root = rootObject(schema);
    const messages: Array<{ role: string; content: string }> = [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `${prompt?.trim() || "Extract the data the schema describes."}\n\n${pageForModel(page, o.maxInputTokens ?? 8000)}`,
      },
    ];
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await complete(messages, root.schema, signal);
        if (!answer.ok) return answer;
        const value = root.wrapped ? (answer.value as { result?: unknown } | null)?.result : answer.value;
        const problem = validate(value);
        if (problem === null) return { ok: true, value };
        if (attempt === 1) return fail(`The extraction model's answer does not match response_format: ${problem}`);
        messages.push(
          { role: "assistant", content: answer.raw },
          {
            role: "user",
            content: `That answer does not match the schema (${problem}). Answer again with valid JSON.`,
          },
        );
      }
      return fail("unreachable");
    } catch (err) {
      if (signal.aborted && !outer?.aborted) return fail(`The extraction model did not answer within ${timeoutMs} ms`);
      return fail(`The extraction model could not be reached (${(err as Error).name})`);
    }
  };
}
