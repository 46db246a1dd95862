// Black-box harness: a mock on a free port, and a client that runs every response it receives through the spec
// module's response validators (issue 3: "every response the mock sends validates against the spec").

import { type Contract, loadContract, type OperationSpec } from "@plumbline-kit/contract";
import { afterAll, beforeAll, expect } from "vitest";
import type { MockAccountInput } from "../memory-accounts.ts";
import { type MockOptions, type RunningMock, startMock } from "../start-mock.ts";

export const KEY = "test-key";
export const BROKE = "broke-key";

export interface Exchange {
  status: number;
  headers: Headers;
  body: unknown;
  raw: Buffer;
}

/** The contract operation a method and path belong to (path templates matched segment by segment). */
export function operationFor(contract: Contract, method: string, path: string): OperationSpec | undefined {
  const segments = path.split("?")[0].split("/");
  return contract.operations.find((o) => {
    if (o.method !== method.toLowerCase()) return false;
    const t = o.path.split("/");
    return t.length === segments.length && t.every((s, i) => s.startsWith("{") || s === segments[i]);
  });
}

/** Every violation of the spec found in the traffic, as "METHOD path status: problem". */
export function violationsOf(contract: Contract, method: string, path: string, ex: Exchange): string[] {
  const op = operationFor(contract, method, path);
  if (!op) return [];
  const where = `${method} ${path} ${ex.status}`;
  const out: string[] = [];
  const body = ex.headers.get("content-type")?.includes("json") ? ex.body : undefined;
  const bodyErrors = contract.validators.checkResponse(
    op.operationId,
    ex.status,
    ex.headers.get("content-type") ?? "",
    body,
  );
  if (bodyErrors) out.push(`${where}: ${JSON.stringify(bodyErrors)}`);
  const headers = Object.fromEntries(ex.headers.entries());
  const headerErrors = contract.validators.checkResponseHeaders(op.operationId, ex.status, headers);
  if (headerErrors) out.push(`${where}: ${JSON.stringify(headerErrors)}`);
  return out;
}

export interface MockHarness {
  mock: RunningMock;
  contract: Contract;
  violations: string[];
  call(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string> },
  ): Promise<Exchange>;
  post(path: string, body: unknown, key?: string | null, headers?: Record<string, string>): Promise<Exchange>;
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<Exchange>;
  admin(method: string, path: string, body?: unknown): Promise<Exchange>;
  balance(key?: string): Promise<number>;
}

/** Starts one mock for the file; asserts at the end that none of its traffic broke the spec. */
export function useMock(options: MockOptions & { keys?: MockAccountInput[] } = {}): MockHarness {
  const h = { violations: [] as string[] } as MockHarness;
  beforeAll(async () => {
    h.contract = options.contract ?? (await loadContract({ version: options.contractVersion }));
    h.mock = await startMock({
      port: 0,
      contract: h.contract,
      keys: [
        { key: KEY, credits: 100_000 },
        { key: BROKE, credits: 0 },
      ],
      // rate limits have their own test file; elsewhere they would only get in the way
      rateLimits: { perAccount: 0 },
      ...options,
    });
  });
  afterAll(async () => {
    await h.mock?.close();
    expect(h.violations).toEqual([]);
  });

  h.call = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? KEY : o.key;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let payload: string | undefined = o.raw;
    if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${h.mock.url}${path}`, { method, headers, body: payload });
    const raw = Buffer.from(await res.arrayBuffer());
    let body: unknown = raw;
    if (res.headers.get("content-type")?.includes("json")) body = JSON.parse(raw.toString("utf8"));
    const ex = { status: res.status, headers: res.headers, body, raw };
    h.violations.push(...violationsOf(h.contract, method, path, ex));
    return ex;
  };
  h.post = (path, body, key, headers) => h.call("POST", path, { body, key, headers });
  h.get = (path, key, headers) => h.call("GET", path, { key, headers });
  h.admin = (method, path, body) => h.call(method, `/__mock${path}`, { body, key: null });
  h.balance = async (key = KEY) => ((await h.get("/usage", key)).body as { usage: number }).usage;
  return h;
}
