// Rate limits (interface-spec "Limits" 4; D-rate-limits): per account, a tighter window for screenshot, 429 with
// Retry-After and the IETF RateLimit headers, windows on the mock clock.
import { describe, expect, it } from "vitest";
import { useMock } from "./harness.ts";

const h = useMock({
  clock: "manual",
  startTime: Date.parse("2026-11-25T12:00:00.000Z"),
  rateLimits: { perAccount: 5, perOperation: { screenshot: 2 } },
});

describe("rate limits", () => {
  it("answers the request past the window's limit with 429, Retry-After and RateLimit headers", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof h.get>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await h.get("/usage");
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last?.headers.get("retry-after")).toBe("60");
    expect(last?.headers.get("ratelimit-policy")).toBe('"default";q=5;w=60');
    expect(last?.headers.get("ratelimit")).toBe('"default";r=0;t=60');
    expect(last?.body).toMatchObject({ ok: false, error: "Too Many Requests", code: "PLB_RATE_LIMITED" });
  });

  it("opens a new window when the clock moves on, and reports what remains", async () => {
    await h.admin("POST", "/clock/advance", { ms: 60_000 });
    const r = await h.get("/usage");
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit")).toBe('"default";r=4;t=60');
  });

  it("limits screenshot on its own tighter window and charges nothing for a 429", async () => {
    await h.admin("POST", "/clock/advance", { ms: 60_000 });
    const before = await h.balance();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.post("/screenshot", { url: "https://example.com/" })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const spent = before - (await h.balance());
    expect(spent).toBe(2 * (h.contract.prices.get("screenshot")?.credits ?? 0));
  });

  it("keeps each account's window to itself", async () => {
    await h.admin("POST", "/accounts", { key: "other", credits: 10 });
    expect((await h.get("/usage", "other")).status).toBe(200);
  });
});
