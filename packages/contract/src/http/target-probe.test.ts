// The probe every client of a target runs first (conform, gate, load, fuzz): a down target and one that is not this
// API are each one line naming the cause and what to do; the API itself (a 200 health body, or a 429) passes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeTarget, unreachableLine } from "./target-probe.ts";

let server: Server;
let url: string;
const answers: Record<string, [number, string, string]> = {
  "/api/health": [200, "application/json", '{"status":"ok","version":"1.0.0"}'],
  "/html/health": [200, "text/html", "<!doctype html><p>ok</p>"],
  "/other/health": [200, "application/json", "[1,2]"],
  "/busy/health": [429, "application/json", '{"error":{"code":"PLB_RATE_LIMITED"}}'],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, type, body] = answers[req.url ?? ""] ?? [404, "text/html", "<h1>Not found</h1>"];
    res.writeHead(status, { "content-type": type }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A port nothing listens on: one that was just free. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("probeTarget", () => {
  it("passes the API and reads its health body", async () => {
    const p = await probeTarget(`${url}/api/`);
    expect(p).toMatchObject({ ok: true, health: { status: "ok", version: "1.0.0" } });
    expect((await probeTarget(`${url}/busy`)).ok).toBe(true);
  });

  it("refuses what is not this API, saying what GET /health answered", async () => {
    expect(await probeTarget(url)).toEqual({
      ok: false,
      kind: "not-api",
      message: "this is not the Web Search API: GET /health answered 404 (is --target the API's base URL?)",
    });
    expect(await probeTarget(`${url}/html`)).toMatchObject({
      kind: "not-api",
      message: expect.stringMatching(/^this is not the Web Search API: GET \/health answered 200 with text\/html/),
    });
    expect((await probeTarget(`${url}/other`)).ok).toBe(false);
  });

  it("says nothing answers, and what to do, when the port is closed", async () => {
    const port = await closedPort();
    expect(await probeTarget(`http://127.0.0.1:${port}`)).toEqual({
      ok: false,
      kind: "down",
      message: `nothing answers at http://127.0.0.1:${port} (connection refused): is the server running?`,
    });
  });

  it("words a host that does not resolve and a silent target", () => {
    expect(unreachableLine("http://nope.invalid/", { kind: "refused", code: "ENOTFOUND" })).toBe(
      "nothing answers at http://nope.invalid (no such host): is the host name right?",
    );
    expect(unreachableLine("http://10.0.0.1", { kind: "timeout", message: "no answer within 10000 ms" })).toMatch(
      /^http:\/\/10\.0\.0\.1 did not answer GET \/health in time \(no answer within 10000 ms\)/,
    );
  });
});
