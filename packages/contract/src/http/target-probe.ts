// Is the target this API at all? One probe for every client of a target (conform, gate, load, fuzz), run before any
// check or load: GET /health must answer 200 with a JSON object (the contract's health body; whether its members
// are right is the conformance check's to judge), or 429 (a limit the clients keep). A transport failure or any other answer is one line a person can act on:
//   nothing answers at http://127.0.0.1:4010 (connection refused): is the server running?
//   this is not the Web Search API: GET /health answered 404
// Self-contained: no import outside spec/.
import { createHttpClient, type HttpAnswer, type HttpClient, headerText } from "./client.ts";

export type TargetProbe =
  | {
      ok: true;
      /** the health body (`status`, and `version` when the target states it) */
      health: { status: string; version?: string; [k: string]: unknown };
      headers: Record<string, string | string[] | undefined>;
    }
  | {
      ok: false;
      /** down: nothing answered HTTP; not-api: something answered, but not as this API's /health does */
      kind: "down" | "not-api";
      /** one line naming the cause and what to do */
      message: string;
    };

/** The origin a person typed, without a trailing slash: what the messages name. */
function originOf(target: string): string {
  return target.replace(/\/+$/, "");
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name does not resolve now",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "the network is unreachable",
  ETIMEDOUT: "the connection timed out",
  EPIPE: "the connection was closed",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  ERR_SSL_WRONG_VERSION_NUMBER: "it does not speak TLS (http:// instead of https://?)",
};

/**
 * One line for a request that got no HTTP answer: what was tried, the cause in words, what to do. `code` is the
 * system's error code (ECONNREFUSED, …) when there is one; `detail` the failure's own message otherwise.
 */
export function unreachableLine(target: string, failure: { kind?: string; code?: string; message?: string }): string {
  const at = originOf(target);
  const code = failure.code ?? /\b(E[A-Z_]{3,}|ERR_[A-Z_]+)\b/.exec(failure.message ?? "")?.[1];
  if (failure.kind === "timeout" || code === "ETIMEDOUT")
    return `${at} did not answer GET /health in time (${failure.message ?? "timed out"}): is the address right, and is the server up and not overloaded?`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `nothing answers at ${at} (${CAUSES[code]}): is the host name right?`;
  const cause = (code && CAUSES[code]) ?? failure.message ?? "no answer";
  return `nothing answers at ${at} (${cause}): is the server running?`;
}

/** Judges the answer to GET /health: the probe's verdict. */
export function judgeHealth(target: string, answer: HttpAnswer): TargetProbe {
  if (!answer.ok) return { ok: false, kind: "down", message: unreachableLine(target, answer) };
  const notApi = (why: string): TargetProbe => ({
    ok: false,
    kind: "not-api",
    message: `this is not the Web Search API: GET /health answered ${why} (is --target the API's base URL?)`,
  });
  // a target limiting this client's rate is an API that answers: its limit is the clients' to keep, not a refusal
  if (answer.status === 429) return { ok: true, health: { status: "rate-limited" }, headers: answer.headers };
  if (answer.status !== 200) return notApi(String(answer.status));
  const type = headerText(answer.headers, "content-type") ?? "no content type";
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString("utf8"));
  } catch {
    return notApi(`200 with ${type.split(";")[0]}, not the JSON health answer`);
  }
  // a JSON object is taken for this API's answer even when its members are wrong: judging them is the health
  // check's job (conform health-status-version), not a reason to refuse the whole run
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return notApi("200 with JSON that is not an object, not the health answer");
  const health = body as { status?: unknown };
  return {
    ok: true,
    health: { ...(body as object), status: typeof health.status === "string" ? health.status : "" },
    headers: answer.headers,
  };
}

/**
 * GET /health on the target, judged. Uses `client` when given (its keep-alive sockets), else a client of its own.
 */
export async function probeTarget(
  target: string,
  o: { timeoutMs?: number; client?: HttpClient } = {},
): Promise<TargetProbe> {
  const http = o.client ?? createHttpClient();
  try {
    const answer = await http.request({
      method: "GET",
      url: `${originOf(target)}/health`,
      headers: { accept: "application/json" },
      timeoutMs: o.timeoutMs ?? 10_000,
    });
    return judgeHealth(target, answer);
  } finally {
    if (!o.client) http.close();
  }
}
