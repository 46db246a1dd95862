// createMockHandlers(): the stateful mock as MSW request handlers (issue 18), for client teams that mock HTTP
// in-process in their unit tests. No second implementation: the handlers drive the very Fastify instance
// `startMock()` listens with (buildMock), through Fastify's `inject`, so validation, auth, credits, 402s,
// batches, rate limits, deepcrawl, steering and the admin handle are the server mock's own code.
import type { RequestHandler } from "msw";

/** msw is an optional peer: loaded when handlers are created, with a message naming it when it is not installed. */
async function loadMsw(): Promise<typeof import("msw")> {
  try {
    return await import("msw");
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" ||
      !String((err as Error).message).includes("'msw'")
    )
      throw err;
    throw new Error("createMockHandlers needs msw 2.x, which is not installed: npm install --save-dev msw");
  }
}

import type { Contract } from "@plumbline-kit/contract";
import type { MockAccountInput } from "../memory-accounts.ts";
import type { MockAdmin } from "../mock-state.ts";
import type { ReplayReport } from "../replay/replay.ts";
import { buildMock, type MockOptions } from "../start-mock.ts";

export const DEFAULT_MSW_BASE_URL = "https://api.plumbline.test";

export interface MockHandlersOptions extends Omit<MockOptions, "host" | "port" | "publicUrl"> {
  /** where the handlers answer; every URL the mock hands out (zipUrl, resource metadata) is on it too */
  baseUrl?: string;
}

export interface MockHandlers {
  /** pass them to msw's `setupServer(...handlers)` (or `server.use(...handlers)`) */
  handlers: RequestHandler[];
  /** the same admin handle `startMock()` gives: balances, clock, journal, fault rules, batch failures */
  admin: MockAdmin;
  baseUrl: string;
  contract: Contract;
  keys: MockAccountInput[];
  /** what loading `replay` found (answers, skipped entries, answers that violate the spec); null without it */
  replay: ReplayReport | null;
  close(): Promise<void>;
}

type InjectHeaders = Record<string, string | string[]>;

function requestHeaders(request: Request): InjectHeaders {
  const out: InjectHeaders = {};
  request.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function responseHeaders(raw: Record<string, string | string[] | number | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    // the body is handed over whole: framing headers of the in-process answer mean nothing to fetch
    if (value === undefined || name === "transfer-encoding" || name === "connection") continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
  }
  return headers;
}

export async function createMockHandlers(options: MockHandlersOptions = {}): Promise<MockHandlers> {
  const { HttpResponse, http } = await loadMsw();
  const baseUrl = new URL(options.baseUrl ?? DEFAULT_MSW_BASE_URL).origin;
  const { app, state, contract, keys, replay } = await buildMock({ ...options, publicUrl: baseUrl });
  await app.ready();
  const host = new URL(baseUrl).host;

  const handler = http.all(`${baseUrl}/*`, async ({ request }) => {
    const url = new URL(request.url);
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const payload = hasBody ? Buffer.from(await request.arrayBuffer()) : undefined;
    try {
      const res = await app.inject({
        method: request.method as "GET",
        url: `${url.pathname}${url.search}`,
        headers: { ...requestHeaders(request), host },
        payload: payload?.length ? payload : undefined,
      });
      const body = request.method === "HEAD" || res.statusCode === 204 ? null : res.rawPayload;
      return new HttpResponse(body, { status: res.statusCode, headers: responseHeaders(res.headers) });
    } catch {
      // `Prefer: fault=reset` (or a fault rule) drops the connection: fetch rejects, as over a socket
      return HttpResponse.error();
    }
  });

  return {
    handlers: [handler],
    admin: state.admin,
    baseUrl,
    contract,
    keys,
    replay: replay?.report ?? null,
    close: () => app.close(),
  };
}
