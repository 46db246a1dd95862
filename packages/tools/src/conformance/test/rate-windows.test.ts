// The suite's pacing below a target's windows (issue 17; D-rate-limits).
import { describe, expect, it } from "vitest";
import { createRateWindows, parseRateLimit } from "../rate-windows.ts";

describe("--rate-limit", () => {
  it("parses auto, N and N,operation=M, and refuses anything else", () => {
    expect(parseRateLimit("auto")).toBe("auto");
    expect(parseRateLimit("200,screenshot=10")).toEqual({
      perAccount: 200,
      perOperation: { screenshot: 10 },
      windowSeconds: 60,
    });
    for (const bad of ["", "0", "fast", "200,screenshot", "200,screenshot=0"])
      expect(() => parseRateLimit(bad), bad).toThrow(/--rate-limit/);
  });

  it("a stated window: the request past its limit waits for the window to refill, others go at once", () => {
    const w = createRateWindows(parseRateLimit("100,screenshot=2"));
    expect(w.reserve("screenshot", 0).waitMs).toBe(0);
    expect(w.reserve("screenshot", 1000).waitMs).toBe(0);
    expect(w.reserve("search", 2000).waitMs).toBe(0);
    expect(w.reserve("screenshot", 3000)).toEqual({ waitMs: 57_000, window: "screenshot" });
  });

  it("auto: waits as long as the target's RateLimit header says once a window is used up", () => {
    const w = createRateWindows("auto");
    expect(w.reserve("screenshot", 0).waitMs).toBe(0);
    w.observe({ ratelimit: '"screenshot";r=0;t=42' }, 0);
    expect(w.reserve("search", 1000).waitMs).toBe(0);
    expect(w.reserve("screenshot", 2000)).toEqual({ waitMs: 40_000, window: "screenshot" });
    w.observe({ ratelimit: '"default";r=5;t=10' }, 50_000);
    expect(w.reserve("crawl", 50_000).waitMs).toBe(0);
  });
});
