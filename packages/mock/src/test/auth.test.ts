// Authentication through HTTP (interface-spec "Authentication"; D-auth, D-status-auth, D-payment-challenge).

import { baseBody } from "@plumbline-kit/contract/bounds";
import { describe, expect, it } from "vitest";
import { KEY, useMock } from "./harness.ts";

const h = useMock();

// a valid body per operation: the document's own request examples
const bodies = (operationId: string) => baseBody(h.contract.operation(operationId));

function decodeRequest(header: string): Record<string, string> {
  const m = /request="([^"]+)"/.exec(header);
  return JSON.parse(Buffer.from(m?.[1] ?? "", "base64url").toString("utf8"));
}

describe("authentication", () => {
  it("answers an anonymous call to every paid operation with the 402 Payment challenge", async () => {
    for (const op of h.contract.contractOperations.filter((o) => o.pricing)) {
      const r = await h.post(op.path, bodies(op.operationId), null);
      expect(r.status, op.operationId).toBe(402);
      expect(r.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(r.headers.get("cache-control")).toBe("no-store");
      const www = r.headers.get("www-authenticate") ?? "";
      expect(www).toMatch(
        /^Payment id="[\w-]{43}", realm="127\.0\.0\.1", method="test", intent="charge", request="[\w-]+"/,
      );
      expect(www).toContain(`Bearer resource_metadata="${h.mock.url}/.well-known/oauth-protected-resource"`);
      expect(decodeRequest(www)).toEqual({ amount: op.pricing?.price, currency: "usd", recipient: "plumbline" });
      const body = r.body as Record<string, unknown>;
      expect(body).toMatchObject({
        ok: false,
        type: "https://paymentauth.org/problems/payment-required",
        title: "Payment Required",
        status: 402,
        code: "PLB_PAYMENT_REQUIRED",
      });
      expect(www).toContain(`id="${body.challengeId}"`);
    }
  });

  it("prices the challenge from the body, so an anonymous call with a malformed body gets 400 (D-payment-challenge)", async () => {
    const r = await h.call("POST", "/search", { raw: "{", key: null, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    const invalid = await h.post("/search", { query: "" }, null);
    expect(invalid.status, "a well-formed but invalid body is still challenged").toBe(402);
  });

  it("answers an unknown, malformed or revoked bearer with 401 invalid_token naming the metadata", async () => {
    const revoked = await h.admin("POST", "/accounts", { key: "soon-revoked", credits: 10 });
    expect(revoked.status).toBe(201);
    expect((await h.admin("DELETE", "/accounts/soon-revoked")).status).toBe(200);
    const attempts: Array<Record<string, string>> = [
      { authorization: "Bearer not-a-key" },
      { authorization: "Bearer soon-revoked" },
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer" },
      { authorization: "Bearer two words" },
    ];
    for (const headers of attempts) {
      for (const path of ["/search", "/usage"]) {
        const r = await h.call(path === "/usage" ? "GET" : "POST", path, {
          body: path === "/search" ? bodies("search") : undefined,
          key: null,
          headers,
        });
        expect(r.status, `${path} ${headers.authorization}`).toBe(401);
        expect(r.headers.get("www-authenticate")).toBe(
          `Bearer error="invalid_token", resource_metadata="${h.mock.url}/.well-known/oauth-protected-resource"`,
        );
        expect(r.body).toMatchObject({ ok: false, error: "Unauthorized", code: "PLB_INVALID_TOKEN" });
      }
    }
  });

  it("answers /usage without a credential with 401 (it is not paid, so no 402)", async () => {
    const r = await h.get("/usage", null);
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.mock.url}/.well-known/oauth-protected-resource"`,
    );
  });

  it("ignores credentials in the query string", async () => {
    expect((await h.get(`/usage?api_key=${KEY}`, null)).status).toBe(401);
  });

  it("serves /health and the metadata document without credentials", async () => {
    expect((await h.get("/health", null)).status).toBe(200);
    expect((await h.get("/.well-known/oauth-protected-resource", null)).status).toBe(200);
  });

  it("shows a deepcrawl task to its own account only (D-status-auth)", async () => {
    expect((await h.admin("POST", "/accounts", { key: "other-account", credits: 10 })).status).toBe(201);
    const started = await h.post("/deepcrawl", bodies("deepcrawl"));
    const { taskId } = started.body as { taskId: string };
    expect((await h.get(`/deepcrawl/status/${taskId}`)).status).toBe(200);
    const anonymous = await h.get(`/deepcrawl/status/${taskId}`, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.mock.url}/.well-known/oauth-protected-resource"`,
    );
    expect(anonymous.body).toMatchObject({ code: "PLB_MISSING_CREDENTIAL" });
    expect(await h.get(`/deepcrawl/status/${taskId}`, "unknown-key")).toMatchObject({
      status: 401,
      body: { code: "PLB_INVALID_TOKEN" },
    });
    // another account's key: exactly the answer of an unknown id, so the id's existence is not revealed
    const other = await h.get(`/deepcrawl/status/${taskId}`, "other-account");
    const unknownId = `dc_${"0".repeat(32)}`;
    const unknown = await h.get(`/deepcrawl/status/${unknownId}`, "other-account");
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ ...(unknown.body as object), taskId, message: `No deepcrawl task with id ${taskId}` });
  });

  it("reports the credential type of the account", async () => {
    await h.admin("POST", "/accounts", { key: "oauth-token", credits: 5, credentialType: "oauth" });
    const r = await h.get("/usage", "oauth-token");
    expect(r.body).toMatchObject({ usage: 5, credential_type: "oauth" });
    expect((r.body as { client_id: string | null }).client_id).toEqual(expect.any(String));
    expect((await h.get("/usage")).body).toMatchObject({ credential_type: "api_key", client_id: null });
  });
});
