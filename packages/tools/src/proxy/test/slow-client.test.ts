// The proxy bounds what clients send (issue 38): a request whose headers or body trickle in a byte at a time is
// answered 400 PLB_REQUEST_TIMEOUT in the contract's shape once the request timeout has passed, and its connection
// closed, as the mock and the reference do (D-framework-errors); other clients are served meanwhile.
import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningProxy, startProxy } from "../start-proxy.ts";

const KEY = "slow-client-key-5c7e";
const TIMEOUT_MS = 1_000;
let contract: Contract;
let mock: RunningMock;
let proxy: RunningProxy;

beforeAll(async () => {
  contract = await loadContract();
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 100 }], contract });
  proxy = await startProxy({
    upstream: mock.url,
    port: 0,
    reportDir: null,
    contract,
    requestTimeouts: { requestTimeoutMs: TIMEOUT_MS, checkIntervalMs: 100 },
  });
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

interface Trickled {
  status: number;
  body: unknown;
  /** ms from the first byte sent to the connection's close */
  openFor: number;
  /** bytes of the request the client got to send */
  sent: number;
}

/** Sends `head` whole, then `trickle` one byte every 50 ms, until the proxy closes the connection. */
function trickle(head: string, trickle: string): Promise<Trickled> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let sent = 0;
    let text = "";
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(proxy.port, "127.0.0.1", () => {
      socket.write(head);
      sent += head.length;
      timer = setInterval(() => {
        if (sent - head.length >= trickle.length || !socket.writable) return;
        socket.write(trickle[sent - head.length]);
        sent++;
      }, 50);
    });
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => {
      text += c;
    });
    socket.on("error", () => {}); // a write after the proxy's close: the close below reports
    socket.on("close", () => {
      clearInterval(timer);
      const [status, body] = parse(text);
      if (!status) return reject(new Error(`no answer before the close: ${JSON.stringify(text)}`));
      resolve({ status, body, openFor: Date.now() - started, sent });
    });
  });
}

function parse(text: string): [number, unknown] {
  const [head, ...rest] = text.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  try {
    return [status, JSON.parse(rest.join("\r\n\r\n"))];
  } catch {
    return [status, rest.join("\r\n\r\n")];
  }
}

const timeoutShape = { ok: false, error: "Bad Request", code: "PLB_REQUEST_TIMEOUT", message: expect.any(String) };
// a body that would take 50 s at one byte per 50 ms: only the timeout can end it
const LONG_BODY = JSON.stringify({ query: "x".repeat(1_000) });

describe("slow clients", () => {
  it("a body sent a byte at a time: 400 PLB_REQUEST_TIMEOUT after the timeout, the connection closed", async () => {
    const head =
      `POST /search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${LONG_BODY.length}\r\n\r\n`;
    const slow = Array.from({ length: 20 }, () => trickle(head, LONG_BODY));
    // served meanwhile: the slow ones hold no one else up
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${proxy.url}/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ query: `meanwhile ${i}` }),
      });
      expect(r.status).toBe(200);
    }
    for (const r of await Promise.all(slow)) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject(timeoutShape);
      expect(r.openFor).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(r.sent).toBeLessThan(head.length + LONG_BODY.length);
    }
    // each is kept as an exchange the proxy answered itself (the 5 served ones beside them)
    await vi.waitFor(() => expect(proxy.report().totals.exchanges).toBe(25), { timeout: 10_000 });
    // a body that never arrived is not judged as the client's invalid request
    expect(proxy.report().totals.violations).toBe(0);
    expect(proxy.report().totals.servedBy.proxy).toBe(20);
  });

  it("headers sent a byte at a time: 400 PLB_REQUEST_TIMEOUT, the connection closed", async () => {
    const headers = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${"x-slow: y\r\n".repeat(200)}\r\n`;
    const r = await trickle("", headers);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(timeoutShape);
    expect(r.openFor).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(r.sent).toBeLessThan(headers.length);
  });

  it("a slow answer is not the client's timeout: an upstream answering after the request timeout still gets through", async () => {
    // the request timeout bounds the request's arrival; the answer is the upstream timeout's (--upstream-timeout)
    const late = createServer((req, res) => {
      req.resume();
      setTimeout(() => res.end(JSON.stringify({ status: "ok" })), TIMEOUT_MS + 500);
    });
    await new Promise<void>((r) => late.listen(0, "127.0.0.1", r));
    const p = await startProxy({
      upstream: `http://127.0.0.1:${(late.address() as AddressInfo).port}`,
      port: 0,
      reportDir: null,
      contract,
      requestTimeouts: { requestTimeoutMs: TIMEOUT_MS, checkIntervalMs: 100 },
    });
    try {
      const r = await fetch(`${p.url}/search`, { method: "POST", body: "{}" });
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ status: "ok" });
    } finally {
      await p.close();
      late.close();
    }
  });
});
