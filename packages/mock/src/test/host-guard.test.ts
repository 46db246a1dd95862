// A web page the developer visits cannot reset or steer the local mock (issue 38): a call of the admin API from
// another origin and a request for a host name the mock does not serve (DNS rebinding) are refused 403 in the
// contract's shape; curl, tests and clients (no Origin, loopback hosts) are served; --allowed-hosts opts names in.
import { request } from "node:http";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../start-mock.ts";

const KEY = "host-guard-key-1a2b";
let contract: Contract;
let mock: RunningMock;
let opened: RunningMock;

beforeAll(async () => {
  contract = await loadContract();
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 100 }], contract });
  opened = await startMock({
    port: 0,
    keys: [{ key: KEY, credits: 100 }],
    contract,
    allowedHosts: ["mock.internal", ".dev.example"],
  });
});
afterAll(async () => {
  await mock?.close();
  await opened?.close();
});

/** A request with a Host of our choosing (fetch sets its own). */
function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { code?: string; ok?: boolean; message?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const forbidden = { ok: false, error: "Forbidden", code: "PLB_REQUEST_FORBIDDEN", message: expect.any(String) };
const balance = async (m: RunningMock) => m.admin.accounts().find((a) => a.key === KEY)?.balance;

describe("the admin API and another origin", () => {
  it("a body-less POST /__mock/reset from a page of another origin is refused, and nothing is reset", async () => {
    const auth = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    expect((await fetch(`${mock.url}/search`, { method: "POST", headers: auth, body: '{"query":"q"}' })).status).toBe(
      200,
    );
    const spent = await balance(mock);
    expect(spent).toBeLessThan(100);
    const host = `127.0.0.1:${mock.port}`;
    const r = await call(mock.port, "POST", "/__mock/reset", { host, origin: "http://evil.example" });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject(forbidden);
    expect(await balance(mock)).toBe(spent);
    // an opaque origin (a sandboxed frame, a file) is another origin too
    expect((await call(mock.port, "POST", "/__mock/reset", { host, origin: "null" })).status).toBe(403);
    // the same page cannot steer the mock either: clock, faults
    const steer = await call(mock.port, "POST", "/__mock/clock/advance", { host, origin: "http://evil.example" });
    expect(steer.status).toBe(403);
  });

  it("the mock's own origin, and callers that send no Origin (curl, tests, clients), are served", async () => {
    const host = `127.0.0.1:${mock.port}`;
    expect((await call(mock.port, "GET", "/__mock/accounts", { host, origin: `http://${host}` })).status).toBe(200);
    expect((await call(mock.port, "POST", "/__mock/reset", { host })).status).toBe(200);
    expect(await balance(mock)).toBe(100);
    expect((await fetch(`${mock.url}/__mock/journal`)).status).toBe(200);
    // a contract route answers any origin (CORS is the contract's business, not the guard's)
    const health = await call(mock.port, "GET", "/health", { host, origin: "http://evil.example" });
    expect(health.status).toBe(200);
  });
});

describe("host names (DNS rebinding)", () => {
  it("a Host the mock does not serve is refused on every route; loopback names and IP literals are served", async () => {
    for (const host of ["evil.example", `evil.example:${mock.port}`, "127.0.0.1.nip.io"]) {
      const r = await call(mock.port, "GET", "/health", { host });
      expect(r.status, host).toBe(403);
      expect(r.body).toMatchObject(forbidden);
      expect(r.body.message).toContain("--allowed-hosts");
      const reset = await call(mock.port, "POST", "/__mock/reset", { host });
      expect(reset.status, host).toBe(403);
    }
    for (const host of [
      `127.0.0.1:${mock.port}`,
      `localhost:${mock.port}`,
      `[::1]:${mock.port}`,
      "LOCALHOST",
      "app.localhost:3000",
      "10.0.0.7:4010",
    ])
      expect((await call(mock.port, "GET", "/health", { host })).status, host).toBe(200);
  });

  it("--allowed-hosts (allowedHosts) serves the names it lists, and a leading dot their subdomains", async () => {
    for (const host of ["mock.internal:4010", "dev.example", "a.dev.example"])
      expect((await call(opened.port, "GET", "/health", { host })).status, host).toBe(200);
    expect((await call(opened.port, "GET", "/health", { host: "evil.example" })).status).toBe(403);
    const all = await startMock({ port: 0, contract, allowedHosts: "all" });
    try {
      expect((await call(all.port, "GET", "/health", { host: "evil.example" })).status).toBe(200);
      // the origin rule stays: a page still cannot reset it
      const r = await call(all.port, "POST", "/__mock/reset", { host: "evil.example", origin: "http://other.example" });
      expect(r.status).toBe(403);
    } finally {
      await all.close();
    }
  });
});
