// The shared HTTP client against a local server: answers, failures as values (timeout, dropped, refused), redirects
// followed (the credential left behind on another origin) or handed back, compressed bodies decoded, paths sent as
// written, and the 429 loop's Retry-After waits, attempts and deadline.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type HttpAnswer, headerText, retryOn429 } from "./client.ts";

function listen(handler: (req: IncomingMessage, res: import("node:http").ServerResponse) => void) {
  const server = createServer(handler);
  return new Promise<{ server: Server; url: string }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe("shared HTTP client", () => {
  let main: { server: Server; url: string };
  let other: { server: Server; url: string };
  const seen: Array<{ url: string; method: string; authorization?: string; body: string }> = [];
  let throttled = 0;
  const client = createHttpClient();

  beforeAll(async () => {
    other = await listen((req, res) => {
      seen.push({ url: req.url ?? "", method: req.method ?? "", authorization: req.headers.authorization, body: "" });
      res.end("other");
    });
    main = await listen((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ url: req.url ?? "", method: req.method ?? "", authorization: req.headers.authorization, body });
        if (req.url === "/hang") return; // never answers
        if (req.url === "/drop") return req.socket.destroy();
        if (req.url === "/gzip") {
          res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
          return res.end(gzipSync("unzipped"));
        }
        if (req.url === "/see-other") {
          res.writeHead(303, { location: "/landed" });
          return res.end();
        }
        if (req.url === "/away") {
          res.writeHead(302, { location: `${other.url}/there` });
          return res.end();
        }
        if (req.url === "/throttled") {
          throttled++;
          if (throttled <= 2) {
            res.writeHead(429, { "retry-after": "1" });
            return res.end();
          }
        }
        res.writeHead(200, { "content-type": "text/plain", "x-twice": ["a", "b"] });
        res.end(`${req.method} ${req.url} ${body}`);
      });
    });
  });
  afterAll(async () => {
    client.close();
    await Promise.all([main, other].map((s) => new Promise((r) => s.server.close(r))));
  });

  it("answers with status, headers and body, the path sent as written", async () => {
    const a = await client.request({ method: "POST", url: `${main.url}/a/../b?x=%zz`, body: "hi", timeoutMs: 5000 });
    expect(a.ok && a.status).toBe(200);
    expect(a.ok && a.body.toString()).toBe("POST /a/../b?x=%zz hi");
    expect(a.ok && headerText(a.headers, "x-twice")).toBe("a, b");
  });

  it("returns a timeout, a dropped connection and a refused one as values", async () => {
    const hang = await client.request({ method: "GET", url: `${main.url}/hang`, timeoutMs: 300 });
    expect(hang).toMatchObject({ ok: false, kind: "timeout", message: "no answer within 300 ms" });
    const drop = await client.request({ method: "GET", url: `${main.url}/drop`, timeoutMs: 5000 });
    expect(drop).toMatchObject({ ok: false, kind: "dropped" });
    const closed = await listen(() => {});
    await new Promise((r) => closed.server.close(r));
    const refused = await client.request({ method: "GET", url: `${closed.url}/`, timeoutMs: 5000 });
    expect(refused).toMatchObject({ ok: false, kind: "refused" });
  });

  it("decodes a gzipped body", async () => {
    const a = await client.request({ method: "GET", url: `${main.url}/gzip`, timeoutMs: 5000 });
    expect(a.ok && a.body.toString()).toBe("unzipped");
  });

  it("follows redirects (a 303 as GET, the credential kept from another origin) or hands them back", async () => {
    const see = await client.request({
      method: "POST",
      url: `${main.url}/see-other`,
      body: "x",
      headers: { authorization: "Bearer k", "content-type": "text/plain" },
      timeoutMs: 5000,
    });
    expect(see.ok && see.body.toString()).toBe("GET /landed ");
    expect(seen.at(-1)?.authorization).toBe("Bearer k");
    const away = await client.request({
      method: "GET",
      url: `${main.url}/away`,
      headers: { authorization: "Bearer k" },
      timeoutMs: 5000,
    });
    expect(away.ok && away.url).toBe(`${other.url}/there`);
    expect(seen.at(-1)).toMatchObject({ url: "/there", authorization: undefined });
    const manual = await client.request({
      method: "GET",
      url: `${main.url}/away`,
      redirect: "manual",
      timeoutMs: 5000,
    });
    expect(manual.ok && manual.status).toBe(302);
  });

  it("waits out a 429 as Retry-After says, a bounded number of times, never past the deadline", async () => {
    const send = () => client.request({ method: "GET", url: `${main.url}/throttled`, timeoutMs: 5000 });
    throttled = 0;
    const waits: number[] = [];
    const a = await retryOn429(send, { attempts: 3, onWait: (s) => waits.push(s) });
    expect(a.ok && a.status).toBe(200);
    expect(waits).toEqual([1, 1]);
    throttled = 0;
    const bounded: HttpAnswer = await retryOn429(send, { attempts: 2 });
    expect(bounded.ok && bounded.status).toBe(429);
    expect(throttled).toBe(2);
    throttled = 0;
    const late = await retryOn429(send, { attempts: 3, deadline: () => Date.now() + 100 });
    expect(late.ok && late.status).toBe(429);
    expect(throttled).toBe(1);
  });
});

// What the load generator asks of the client (load/http-send.ts): a bound on sockets with the queue kept out of the
// timing, sending exactly once, bodies dropped or capped, and close() failing what is queued.
describe("the shared HTTP client set up for load", () => {
  let target: { server: Server; url: string };
  const held: Array<() => void> = [];
  let arrived = 0;
  let peak = 0;
  let open = 0;
  beforeAll(async () => {
    target = await listen((req, res) => {
      arrived++;
      req.resume();
      req.on("end", () => {
        if (req.url === "/big") return res.end(Buffer.alloc(4096, 97));
        if (req.url === "/drop") return req.socket.destroy();
        if (req.url !== "/held") return res.end("answer");
        open++;
        peak = Math.max(peak, open);
        held.push(() => {
          open--;
          res.end("released");
        });
      });
    });
  });
  afterAll(async () => {
    await new Promise((r) => target.server.close(r));
  });

  it("opens at most maxSockets sockets; the queued request's sentAt is when a socket took it", async () => {
    const client = createHttpClient({ maxSockets: 2 });
    const asked = performance.now();
    const answers = [1, 2, 3].map(() =>
      client.request({ method: "GET", url: `${target.url}/held`, timeoutMs: 5000, timeoutFrom: "socket" }),
    );
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(peak).toBe(2);
    const firstTwo = held.splice(0, 2);
    for (const release of firstTwo) release();
    while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
    const released = performance.now();
    held.splice(0, 1)[0]();
    const [a, , c] = await Promise.all(answers);
    if (!a.ok || !c.ok) throw new Error("no answer");
    expect(a.sentAt).toBeLessThan(released);
    // the third waited in the client's queue until a socket was free: its send is after the first two answered
    expect(c.sentAt).toBeGreaterThanOrEqual(a.endAt);
    expect(c.sentAt).toBeGreaterThan(asked);
    expect(c.firstByteAt).toBeGreaterThanOrEqual(c.sentAt);
    expect(c.endAt).toBeGreaterThanOrEqual(c.firstByteAt);
    client.close();
  });

  it("sends exactly once when asked, even on a reused socket the server dropped", async () => {
    const client = createHttpClient({ maxSockets: 1 });
    await client.request({ method: "GET", url: `${target.url}/`, timeoutMs: 5000 });
    const before = arrived;
    const r = await client.request({ method: "GET", url: `${target.url}/drop`, timeoutMs: 5000, retryReused: false });
    expect(r).toMatchObject({ ok: false, kind: "dropped", sent: true });
    expect(arrived - before).toBe(1);
    client.close();
  });

  it("drops a body when asked and fails one over the cap", async () => {
    const client = createHttpClient();
    const dropped = await client.request({
      method: "GET",
      url: `${target.url}/big`,
      timeoutMs: 5000,
      discardBody: true,
    });
    expect(dropped.ok && dropped.body.length).toBe(0);
    const capped = await client.request({
      method: "GET",
      url: `${target.url}/big`,
      timeoutMs: 5000,
      maxBodyBytes: 1000,
    });
    expect(capped).toMatchObject({ ok: false, kind: "too-large" });
    const whole = await client.request({
      method: "GET",
      url: `${target.url}/big`,
      timeoutMs: 5000,
      maxBodyBytes: 4096,
    });
    expect(whole.ok && whole.body.length).toBe(4096);
    client.close();
  });

  it("close() fails the unanswered and the queued requests, and every later one", async () => {
    const client = createHttpClient({ maxSockets: 1 });
    const before = arrived;
    const answers = [1, 2].map(() => client.request({ method: "GET", url: `${target.url}/held`, timeoutMs: 5000 }));
    while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
    client.close();
    const [first, queued] = await Promise.all(answers);
    expect(first).toMatchObject({ ok: false, kind: "dropped", sent: true });
    expect(queued).toMatchObject({ ok: false, sent: false });
    expect(await client.request({ method: "GET", url: `${target.url}/`, timeoutMs: 5000 })).toMatchObject({
      ok: false,
      message: "the client was closed",
    });
    // the queued request never reached the target
    expect(arrived - before).toBe(1);
    for (const release of held.splice(0)) release();
  });
});
