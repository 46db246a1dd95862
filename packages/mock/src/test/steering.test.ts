// Steering from tests (issue 3): Prefer in Prism's vocabulary plus latency and faults, the admin API, and the
// contract-edge mode.
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { KEY, useMock } from "./harness.ts";

const h = useMock();

describe("Prefer", () => {
  it("code= answers any status the operation lists, in the contract's shape", async () => {
    for (const status of h.contract.operation("screenshot").statuses.filter((s) => s >= 400)) {
      const r = await h.post("/screenshot", { url: "https://example.com/" }, undefined, { prefer: `code=${status}` });
      expect(r.status).toBe(status);
      expect((r.body as { ok: boolean }).ok).toBe(false);
    }
    const limited = await h.post("/search", { query: "q" }, undefined, { prefer: "code=429" });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const pay = await h.post("/search", { query: "q" }, undefined, { prefer: "code=402" });
    // the payable challenge a real 402 carries (D-payment-challenge): the test method, the operation's price
    const challenge = pay.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Payment id="[^"]+", realm="[^"]+", method="test", intent="charge", request="[^"]+"/);
    expect(challenge).toContain('Bearer resource_metadata="');
    const request = JSON.parse(Buffer.from(/request="([^"]+)"/.exec(challenge)?.[1] ?? "", "base64url").toString());
    expect(request).toMatchObject({ amount: h.contract.operation("search").pricing?.price });
    expect(pay.body).toMatchObject({ status: 402, code: "PLB_PAYMENT_REQUIRED", challengeId: expect.any(String) });
    const gone = await h.get("/deepcrawl/status/dc_x", undefined, { prefer: "code=404" });
    expect(gone.body).toMatchObject({ status: "not_found", taskId: "dc_x" });
  });

  it("code= for a status the operation does not list is refused with 400", async () => {
    const r = await h.post("/search", { query: "q" }, undefined, { prefer: "code=418" });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toContain("lists 200, 400");
  });

  it("code=200 and forced errors cost nothing beyond the normal call", async () => {
    const before = await h.balance();
    await h.post("/extract", { url: "https://example.com/" }, undefined, { prefer: "code=502" });
    expect(await h.balance()).toBe(before);
    expect((await h.post("/search", { query: "q" }, undefined, { prefer: "code=200" })).status).toBe(200);
    expect(before - (await h.balance())).toBe(1);
  });

  it("example= answers the named example of the document; dynamic=true a value generated from the schema", async () => {
    const r = await h.post("/trending", { search_service: "github" }, undefined, { prefer: "example=github" });
    type Media = { examples: Record<string, { value: unknown }> };
    const responses = h.contract.document.paths?.["/trending"]?.post?.responses ?? {};
    const media = (responses["200"] as { content: Record<string, Media> }).content["application/json"];
    expect(r.body).toEqual(media.examples.github.value);
    const unknown = await h.post("/trending", { search_service: "github" }, undefined, { prefer: "example=nope" });
    expect(unknown.status).toBe(400);
    const dynamic = await h.post("/search", { query: "q" }, undefined, { prefer: "dynamic=true" });
    expect(dynamic.status).toBe(200);
    expect(Array.isArray((dynamic.body as { results: unknown[] }).results)).toBe(true);
  });

  it("latency= delays the answer", async () => {
    const t0 = performance.now();
    await h.get("/health", null, { prefer: "latency=250" });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240);
  });

  it("fault=reset drops the connection", async () => {
    await expect(
      fetch(`${h.mock.url}/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", prefer: "fault=reset" },
        body: JSON.stringify({ query: "q" }),
      }),
    ).rejects.toThrow();
  });

  it("fail-entries= fails the chosen batch entries", async () => {
    const r = await h.post("/news", [{ query: "a" }, { query: "b" }, { query: "c" }], undefined, {
      prefer: 'fail-entries="0,2"',
    });
    expect((r.body as { results: Array<{ success: boolean }> }).results.map((e) => e.success)).toEqual([
      false,
      true,
      false,
    ]);
  });
});

describe("the admin API", () => {
  it("sets fault rules with a status, a count and a probability", async () => {
    const rule = await h.admin("POST", "/faults", { operationId: "crawl", status: 502, times: 2 });
    expect(rule.status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.post("/crawl", { url: "https://example.com/" })).status);
    expect(statuses).toEqual([502, 502, 200]);
    await h.admin("POST", "/faults", { operationId: "sitemap", status: 500, probability: 0 });
    expect((await h.post("/sitemap", { url: "https://example.com/" })).status).toBe(200);
    const listed = (await h.admin("GET", "/faults")).body as { faults: Array<{ id: string; hits: number }> };
    expect(listed.faults).toHaveLength(2);
    expect(listed.faults[0].hits).toBe(2);
    expect((await h.admin("DELETE", `/faults/${listed.faults[1].id}`)).status).toBe(200);
    expect((await h.admin("DELETE", "/faults/nope")).status).toBe(404);
    await h.admin("DELETE", "/faults");
    expect(((await h.admin("GET", "/faults")).body as { faults: unknown[] }).faults).toEqual([]);
  });

  it("rejects a malformed admin request with 400 in the error shape", async () => {
    const r = await h.admin("POST", "/faults", { status: "often" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: "Bad Request" });
  });

  it("chooses which batch entries fail, and with which status", async () => {
    await h.admin("PUT", "/batch-failures", { operationId: "search", entries: [1], statusCode: 500 });
    const r = await h.post("/search", [{ query: "a" }, { query: "b" }]);
    expect(
      (r.body as { results: Array<{ success: boolean; error?: { statusCode: number } }> }).results[1],
    ).toMatchObject({
      success: false,
      error: { statusCode: 500 },
    });
    await h.admin("DELETE", "/batch-failures");
  });

  it("creates accounts, sets balances and keeps a journal of requests", async () => {
    const created = (await h.admin("POST", "/accounts", { credits: 3 })).body as { key: string; balance: number };
    expect(created.balance).toBe(3);
    await h.admin("PUT", `/accounts/${created.key}/balance`, { credits: 42 });
    expect(await h.balance(created.key)).toBe(42);
    await h.admin("DELETE", "/journal");
    await h.post("/search", { query: "journal" }, created.key);
    const journal = (await h.admin("GET", "/journal?operationId=search")).body as {
      entries: Array<{ status: number; operationId: string; requestId: string }>;
    };
    expect(journal.entries).toHaveLength(1);
    expect(journal.entries[0]).toMatchObject({ status: 200, operationId: "search" });
  });

  it("resets every piece of state", async () => {
    await h.admin("POST", "/faults", { status: 500 });
    await h.admin("POST", "/accounts", { key: "temp", credits: 1 });
    await h.post("/search", { query: "q" });
    expect((await h.admin("POST", "/reset")).status).toBe(200);
    expect(await h.balance()).toBe(100_000);
    expect((await h.get("/usage", "temp")).status).toBe(401);
    expect(((await h.admin("GET", "/faults")).body as { faults: unknown[] }).faults).toEqual([]);
    expect(((await h.admin("GET", "/journal")).body as { entries: unknown[] }).entries.length).toBeLessThanOrEqual(2);
  });
});

describe("contract-edge mode (variability=max)", () => {
  it("exercises nulls, partial batches and failed deepcrawl tasks", async () => {
    const prefer = { prefer: "variability=max" };
    let nullDescription = false;
    for (let seed = 1; seed <= 5 && !nullDescription; seed++) {
      const r = await h.post("/trending", { search_service: "hackernews", max_results: 30 }, undefined, {
        prefer: `variability=max, seed=${seed}`,
      });
      nullDescription = (r.body as { results: Array<{ description?: string | null }> }).results.some(
        (x) => x.description === null,
      );
    }
    expect(nullDescription).toBe(true);
    const batch = await h.post("/search", [{ query: "a" }, { query: "b" }, { query: "c" }], undefined, prefer);
    expect((batch.body as { summary: { failed: number } }).summary.failed).toBeGreaterThan(0);
  });
});
