// What the upstream receives and what the client gets back: hop-by-hop headers end at the proxy, Host names the
// upstream, X-Forwarded-* name the client; an event stream reaches the client while it is still being written;
// the MCP endpoint and a mock's admin routes pass through untouched (forwarded, recorded, not judged).
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy } from "../start-proxy.ts";
import { startUpstreamDouble } from "./upstream-double.ts";

const KEY = "forward-key-0d9c8b7a";
let contract: Contract;
let mock: RunningMock;

beforeAll(async () => {
  contract = await loadContract();
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 100 }], contract });
});
afterAll(() => mock.close());

describe("forwarding", () => {
  it("drops hop-by-hop headers, rewrites Host and adds X-Forwarded-*", async () => {
    const upstream = await startUpstreamDouble(mock.url);
    const proxy = await startProxy({ upstream: upstream.url, port: 0, reportDir: null, contract });
    try {
      // node:http, since fetch will not send Connection or Proxy-Authorization
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${proxy.url}/usage`, {
          headers: {
            authorization: `Bearer ${KEY}`,
            connection: "keep-alive, x-hop",
            "x-hop": "only to the proxy",
            "proxy-authorization": "Basic c2VjcmV0",
            "x-end-to-end": "kept",
          },
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode));
        });
        req.on("error", reject);
        req.end();
      });
      expect(status).toBe(200);
      const seen = upstream.seen.at(-1)?.headers ?? {};
      expect(seen.host).toBe(new URL(upstream.url).host);
      expect(seen["x-forwarded-host"]).toBe(new URL(proxy.url).host);
      expect(seen["x-forwarded-proto"]).toBe("http");
      expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
      expect(seen["x-end-to-end"]).toBe("kept");
      expect(seen.authorization).toBe(`Bearer ${KEY}`);
      expect(seen["x-hop"]).toBeUndefined();
      expect(seen["proxy-authorization"]).toBeUndefined();
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it("passes an event stream on while the upstream is still writing it", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const sse: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("data: first\n\n");
      // the second event waits until the client has seen the first through the proxy: a proxy that held the
      // answer until its end would never let that happen (the test's timeout is the hang detector)
      void released.then(() => res.end("data: second\n\n"));
    });
    await new Promise<void>((r) => sse.listen(0, "127.0.0.1", r));
    const proxy = await startProxy({
      upstream: `http://127.0.0.1:${(sse.address() as AddressInfo).port}`,
      port: 0,
      reportDir: null,
      contract,
    });
    try {
      const res = await fetch(`${proxy.url}/events`);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
      release();
      let rest = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += new TextDecoder().decode(value);
      }
      expect(rest).toBe("data: second\n\n");
    } finally {
      await proxy.close();
      sse.close();
    }
  });

  it("forwards the MCP endpoint and a mock's admin routes, unjudged", async () => {
    const proxy = await startProxy({ upstream: mock.url, port: 0, reportDir: null, contract });
    try {
      const init = await fetch(`${proxy.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "proxy-test", version: "1" } },
        }),
      });
      expect(init.status).toBe(200);
      expect(await init.text()).toContain('"serverInfo"');
      const accounts = await fetch(`${proxy.url}/__mock/accounts`);
      expect(accounts.status).toBe(200);
      const report = proxy.report();
      expect(report.operations.map((o) => [o.operationId, o.exchanges])).toEqual([["(no operation)", 2]]);
      expect(report.totals.violations).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
