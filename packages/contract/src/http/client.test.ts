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
