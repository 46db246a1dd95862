// The example client's tests, run twice with the same assertions: against the stateful mock as MSW handlers
// (in-process, no port) and against startMock() over HTTP. The last test compares the two transcripts, so the two
// entry points cannot drift apart (issue 18, "Done when").

import { type MockAdmin, startMock } from "@plumbline-kit/mock";
import { createMockHandlers } from "@plumbline-kit/mock/msw";
import { unzipSync } from "fflate";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient } from "../src/web-client.ts";

const KEY = "team-key";
const OPTIONS = {
  keys: [{ key: KEY, credits: 1000 }],
  seed: 7,
  clock: "manual" as const,
  startTime: Date.UTC(2026, 0, 1),
};

interface Target {
  baseUrl: string;
  admin: MockAdmin;
  close(): Promise<void>;
}

async function inProcess(): Promise<Target> {
  const mock = await createMockHandlers(OPTIONS);
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: "error" });
  return {
    baseUrl: mock.baseUrl,
    admin: mock.admin,
    async close() {
      server.close();
      await mock.close();
    },
  };
}

async function overHttp(): Promise<Target> {
  const mock = await startMock({ ...OPTIONS, port: 0 });
  return { baseUrl: mock.url, admin: mock.admin, close: () => mock.close() };
}

const transcripts: Record<string, Record<string, unknown>> = {};

describe.each([
  ["MSW handlers", inProcess],
  ["startMock over HTTP", overHttp],
])("the example client against %s", (name, setup) => {
  let target: Target;
  let client: ReturnType<typeof createClient>;
  const seen: Record<string, unknown> = {};
  beforeAll(async () => {
    target = await setup();
    // polling waits move the mock's manual clock instead of the test's time
    client = createClient({
      baseUrl: target.baseUrl,
      apiKey: KEY,
      sleep: async (ms) => void target.admin.advanceClock(ms),
    });
  });
  afterAll(async () => {
    transcripts[name] = seen;
    await target.close();
  });

  it("searches, and the search is charged", async () => {
    const results = await client.search("solar panels", 3);
    expect(results).toHaveLength(3);
    for (const r of results) expect(r.link).toMatch(/^https?:\/\//);
    expect(await client.credits()).toBe(999);
    seen.search = results;
  });

  it("reports a batch with a failed entry, charged for the entries that succeeded", async () => {
    const outcome = await client.searchMany(["heat pumps", "__fail_502__", "wind turbines"]);
    expect(outcome).toEqual({ succeeded: 2, failed: [{ index: 1, statusCode: 502 }], totalCost: 2 });
    expect(await client.credits()).toBe(997);
    seen.batch = outcome;
  });

  it("meets 402 when the credits run out", async () => {
    target.admin.setBalance(KEY, 1);
    await client.search("last one");
    const err = await client.search("one too many").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(402);
    expect((err as ApiError).body.code).toBe("PLB_INSUFFICIENT_CREDITS");
    expect(await client.credits()).toBe(0);
    seen.outOfCredits = { status: (err as ApiError).status, body: (err as ApiError).body.code };
  });

  it("polls a deepcrawl to completion on the manual clock and reads its zip", async () => {
    target.admin.setBalance(KEY, 100);
    const { states, zip } = await client.deepcrawl("https://docs.example.com/");
    expect(states).toEqual(["queued", "processing", "completed"]);
    const files = unzipSync(zip);
    const manifest = JSON.parse(new TextDecoder().decode(files["manifest.json"])) as {
      pages: Array<{ path: string; url: string }>;
    };
    expect(manifest.pages.length).toBeGreaterThan(0);
    for (const page of manifest.pages) {
      if (page.path) expect(Object.keys(files)).toContain(page.path);
    }
    expect(await client.credits()).toBe(80);
    // task ids are random (dc_ and 128 bits): everything else must match between the entry points
    const { taskId, ...rest } = manifest as typeof manifest & { taskId: string };
    expect(taskId).toMatch(/\S{16,}/);
    seen.deepcrawl = { states, files: Object.keys(files).sort(), manifest: rest };
  });
});

describe("the two entry points", () => {
  it("give the example client identical results", () => {
    expect(Object.keys(transcripts)).toHaveLength(2);
    expect(transcripts["MSW handlers"]).toEqual(transcripts["startMock over HTTP"]);
  });
});
