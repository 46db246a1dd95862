// The mock's request log (`plumbline mock --log`, readable by default on a terminal): one record per request with
// what a person checks first: method, path (secrets in the query redacted), status, time, the credits it cost, and
// the contract's verdict on it: accepted, or refused by the contract with the error's code and message (as Prism
// prints each request's validation result). The CLI renders the records; `--log json` keeps pino's JSON lines.

import { plural } from "@plumbline-kit/contract/report/plural";
import { redactUrl } from "@plumbline-kit/contract/secrets";
import type { AccountStore } from "@plumbline-kit/platform/stores";
import type { FastifyInstance } from "fastify";

export interface LoggedRequest {
  at: Date;
  method: string;
  /** the URL's path and query, secrets redacted */
  url: string;
  operationId: string | null;
  status: number;
  ms: number;
  /** credits taken from the caller's balance (0 for a free or refused call) */
  credits: number;
  /** paid with the Payment scheme instead: the amount and currency captured */
  paid?: string;
  /** the error's code and message when the answer is an error */
  error?: { code: string; message: string };
}

/** Wraps an account store so each settled hold is counted for its request (read once, by `take`). */
export function countingAccounts(store: AccountStore): { store: AccountStore; take(requestId: string): number } {
  const charged = new Map<string, number>();
  return {
    store: {
      authenticate: (credential) => store.authenticate(credential),
      balance: (accountId) => store.balance(accountId),
      hold: (accountId, credits, meta) => store.hold(accountId, credits, meta),
      settle: (hold) => {
        charged.set(hold.requestId, (charged.get(hold.requestId) ?? 0) + hold.credits);
        return store.settle(hold);
      },
      release: (hold) => store.release(hold),
      refund: (accountId, requestId) => store.refund(accountId, requestId),
    },
    take(requestId) {
      const n = charged.get(requestId) ?? 0;
      charged.delete(requestId);
      return n;
    },
  };
}

/** Installs the hooks that hand each finished request (the admin API's too) to `write`. */
export function installRequestLog(
  app: FastifyInstance,
  credits: (requestId: string) => number,
  write: (entry: LoggedRequest) => void,
): void {
  const errors = new WeakMap<object, { code: string; message: string }>();
  app.addHook("onSend", async (req, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === "string") {
      try {
        const body = JSON.parse(payload) as { code?: unknown; message?: unknown; error?: unknown };
        const code = typeof body.code === "string" ? body.code : String(reply.statusCode);
        const message =
          typeof body.message === "string" ? body.message : typeof body.error === "string" ? body.error : "";
        errors.set(req, { code, message });
      } catch {
        // not JSON: the status says it
      }
    }
    return payload;
  });
  app.addHook("onResponse", async (req, reply) => {
    const p = req.payment;
    write({
      at: new Date(),
      method: req.method,
      url: redactUrl(req.url),
      operationId: req.operation?.operationId ?? null,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      credits: credits(req.id),
      paid: p && p.status !== "voided" ? `${p.amount} ${p.currency}` : undefined,
      error: errors.get(req),
    });
  });
}

const COLORS = { green: 32, yellow: 33, red: 31, dim: 2 } as const;

/**
 * One readable line: `09:41:07 POST /search 200 3.1 ms 1 credit ✓ search` or, for a refusal,
 * `… 422 0.9 ms ✗ PLB_VALIDATION_FAILED: query is required`. Colours only on a terminal.
 */
export function prettyLine(e: LoggedRequest, color = false): string {
  const paint = (c: keyof typeof COLORS, s: string) => (color ? `\x1b[${COLORS[c]}m${s}\x1b[0m` : s);
  const time = e.at.toTimeString().slice(0, 8);
  const status = paint(e.status < 300 ? "green" : e.status < 500 ? "yellow" : "red", String(e.status));
  const cost = e.paid ? `paid ${e.paid}` : e.credits ? plural(e.credits, "credit") : "free";
  const verdict = e.error
    ? paint(e.status >= 500 ? "red" : "yellow", `✗ ${e.error.code}${e.error.message ? `: ${e.error.message}` : ""}`)
    : e.operationId
      ? paint("green", `✓ ${e.operationId}`)
      : paint("dim", "· not a contract operation");
  return `${paint("dim", time)} ${e.method} ${e.url} ${status} ${e.ms.toFixed(1)} ms ${cost} ${verdict}`;
}
