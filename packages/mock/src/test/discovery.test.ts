// Discovery (interface-spec "Discovery endpoints"; D-headers): the document, the RFC 9728 metadata, /docs,
// x-request-id and Link on every response.
import { describe, expect, it } from "vitest";
import { useMock } from "./harness.ts";

const h = useMock();

describe("discovery", () => {
  it("serves the interface description at /openapi.json", async () => {
    const r = await h.get("/openapi.json", null);
    expect(r.status).toBe(200);
    const doc = r.body as { openapi: string; paths: object; servers: Array<{ url: string }> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(Object.keys(h.contract.raw.paths ?? {}));
    expect(doc.servers[0].url).toBe(h.mock.url);
  });

  it("serves RFC 9728 protected-resource metadata naming an authorization server", async () => {
    const r = await h.get("/.well-known/oauth-protected-resource", null);
    expect(r.body).toMatchObject({
      resource: h.mock.url,
      authorization_servers: [expect.any(String)],
      bearer_methods_supported: ["header"],
    });
  });

  it("serves a readable API reference at /docs", async () => {
    const r = await h.get("/docs", null);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    const html = r.raw.toString("utf8");
    for (const op of h.contract.contractOperations) expect(html).toContain(op.operationId);
  });

  it("puts x-request-id and Link on every response, echoing a sane incoming id", async () => {
    const responses = [
      await h.get("/health", null),
      await h.post("/search", { query: "q" }),
      await h.post("/search", { query: "" }),
      await h.get("/nope", null),
      await h.post("/search", { query: "q" }, null),
    ];
    for (const r of responses) {
      expect(r.headers.get("x-request-id")).toMatch(/^\S+$/);
      expect(r.headers.get("link")).toBe(
        '</openapi.json>; rel="service-desc", </docs>; rel="service-doc", </health>; rel="status"',
      );
    }
    const echoed = await h.get("/health", null, { "x-request-id": "trace-123" });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123");
    const ids = new Set(
      await Promise.all([1, 2, 3].map(async () => (await h.get("/health", null)).headers.get("x-request-id"))),
    );
    expect(ids.size).toBe(3);
  });

  it("reports health with the interface version and the mock clock's time", async () => {
    const before = Date.now();
    const r = await h.get("/health", null);
    const after = Date.now();
    expect(r.body).toMatchObject({ status: "ok", version: "1.0.0" });
    // the real clock (not stepped here): a time taken while the request was in flight (to the second, at worst)
    const at = Date.parse((r.body as { timestamp: string }).timestamp);
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(after);
  });
});
