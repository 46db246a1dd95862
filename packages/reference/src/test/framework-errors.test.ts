// D-framework-errors: what Node's HTTP parser and Fastify's router refuse before a route runs answers in the
// contract's error shape, 400 with a catalogue code; and target hosts are judged after normalisation (issue 12).
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningReference, startReference } from "../start-reference.ts";

const KEY = "FRAMEWORK";
let ref: RunningReference;
let guarded: RunningReference;
let dir: string;

/** Writes `raw` on a fresh connection (then half-closes when `end`) and reads the whole answer. */
function rawExchange(
  port: number,
  raw: string,
  end = false,
): Promise<{ status: number; headers: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(raw);
      if (end) socket.end();
    });
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => {
      text += c;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, ...rest] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      let body: unknown = rest.join("\r\n\r\n");
      try {
        body = JSON.parse(body as string);
      } catch {
        // left as text: the assertion shows it
      }
      resolve({ status, headers: head.toLowerCase(), body });
    });
  });
}

const inShape = (code: string) => ({ ok: false, error: "Bad Request", code, message: expect.any(String) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-fw-"));
  ref = await startReference({
    port: 0,
    dataDir: dir,
    keys: [{ key: KEY, credits: 10 }],
    requestTimeouts: { requestTimeoutMs: 2_000, checkIntervalMs: 100 }, // far past what a whole request takes on loopback
  });
  guarded = await startReference({ port: 0, dataDir: join(dir, "g"), keys: [{ key: KEY, credits: 10 }] });
});
afterAll(async () => {
  await ref?.close();
  await guarded?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("framework errors in the contract's shape (D-framework-errors)", () => {
  it("an 8 KB task id: 400 PLB_BAD_PARAMETER, the path not echoed", async () => {
    const id = "x".repeat(8 * 1024);
    const r = await fetch(`${ref.url}/deepcrawl/status/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body).toMatchObject(inShape("PLB_BAD_PARAMETER"));
    expect(JSON.stringify(body)).not.toContain(id);
  });

  it("a path that is not valid percent-encoding: 400 PLB_BAD_PARAMETER", async () => {
    const r = await rawExchange(
      ref.port,
      "GET /deepcrawl/status/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(inShape("PLB_BAD_PARAMETER"));
  });

  it("oversized headers: 400 PLB_HEADERS_TOO_LARGE as JSON, not a bare 431", async () => {
    const r = await new Promise<{ status: number; type: string; body: unknown }>((resolve, reject) => {
      const req = request(`${ref.url}/health`, { headers: { "x-padding": "y".repeat(32 * 1024) } }, (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", body: JSON.parse(text) }),
        );
      });
      req.on("error", reject);
      req.end();
    });
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body).toMatchObject(inShape("PLB_HEADERS_TOO_LARGE"));
  });

  it("a body that stalls past the request timeout: 400 PLB_REQUEST_TIMEOUT as JSON", async () => {
    const head =
      `POST /crawl HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n` +
      "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    const r = await rawExchange(ref.port, `${head}{"url":`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(inShape("PLB_REQUEST_TIMEOUT"));
  });

  it("a body the client stops sending mid-way: 400 PLB_BODY_INCOMPLETE as JSON", async () => {
    const head =
      `POST /crawl HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n` +
      "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    const r = await rawExchange(ref.port, `${head}{"url":`, true);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(inShape("PLB_BODY_INCOMPLETE"));
  });

  it("a request the HTTP parser refuses: 400 PLB_MALFORMED_REQUEST as JSON", async () => {
    const r = await rawExchange(ref.port, "GET /health HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n");
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(inShape("PLB_MALFORMED_REQUEST"));
  });
});

describe("target hosts are normalised before the address policy (issue 12)", () => {
  const crawl = async (url: string) => {
    const r = await fetch(`${guarded.url}/crawl`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url, enableFallback: false }),
    });
    return { status: r.status, body: (await r.json()) as { code?: string; message?: string } };
  };

  it.each([
    "http://localhost./",
    "http://LOCALHOST../x",
    "http://api.localhost./",
    "http://metadata.google.internal./",
  ])("%s is refused without DNS: 400 PLB_BAD_VALUE, uncharged", async (url) => {
    const r = await crawl(url);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "PLB_BAD_VALUE", message: expect.stringMatching(/loopback|metadata/) });
  });

  it.each([
    "http://a..b.example/",
    "http://-bad-.example/",
    `http://${"l".repeat(64)}.example/`,
    "http://exa!mple.com/",
  ])("%s is a bad value (400), not an upstream failure", async (url) => {
    const r = await crawl(url);
    expect(r.status).toBe(400);
    expect(r.body.code).toMatch(/PLB_BAD_VALUE|PLB_VALIDATION_FAILED/);
  });

  it("charged nothing for any of them", async () => {
    const r = await fetch(`${guarded.url}/usage`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await r.json()) as { usage: number }).usage).toBe(10);
  });
});
