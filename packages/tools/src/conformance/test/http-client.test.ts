// The suite's client over the shared one: a 429 waited out as Retry-After says (an HTTP date too), the recorded
// exchange carrying the key as its variable only, and a target that never answers recorded as a timeout.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient } from "../http-client.ts";
import { loadContracts } from "../run-conformance.ts";

const KEY = "plb_test_secret_key";

describe("the suite's HTTP client", () => {
  let server: Server;
  let url: string;
  let throttled = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/hang") return;
      if (req.url?.startsWith("/usage") && throttled++ === 0) {
        res.writeHead(429, { "retry-after": new Date(Date.now() + 1500).toUTCString() });
        return res.end();
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ usage: 7, auth: req.headers.authorization }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const clientWith = async (requestTimeoutMs: number, waits: string[] = []) =>
    createHttpClient({
      target: url,
      apiKey: KEY,
      requestTimeoutMs,
      contract: (await loadContracts()).contract,
      runId: "t",
      onWait: (l) => waits.push(l),
      rateLimit: "auto",
    });

  it("waits out a 429 whose Retry-After is a date, and records the key as $PLUMBLINE_API_KEY", async () => {
    const waits: string[] = [];
    // a timeout no answer of this local server comes near, however loaded the machine
    const http = await clientWith(30_000, waits);
    try {
      const ex = await http.call("test", "GET", `/usage?api_key=${KEY}`);
      expect(ex.response?.status).toBe(200);
      expect(ex.response?.json).toMatchObject({ usage: 7, auth: `Bearer ${KEY}` });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toMatch(/waiting [12] s \(Retry-After\)/);
      expect(http.exchanges).toHaveLength(2);
      expect(JSON.stringify(http.exchanges.map((e) => e.request))).not.toContain(KEY);
      expect(ex.request.headers.authorization).toBe("Bearer $PLUMBLINE_API_KEY");
    } finally {
      http.close();
    }
  });

  it("records a target that never answers as a timeout", async () => {
    const http = await clientWith(300);
    try {
      const hung = await http.call("test", "GET", "/hang");
      expect(hung.response).toBeUndefined();
      expect(hung.error).toBe("timeout: no answer within 300 ms");
    } finally {
      http.close();
    }
  });
});
