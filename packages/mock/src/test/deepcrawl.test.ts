// Deepcrawl through HTTP on the manual clock (interface-spec "States and transitions"; D-deepcrawl-states,
// D-deepcrawl-zip, D-status-not-found).

import type { JsonSchema } from "@plumbline-kit/contract";
import { readDeepcrawlPackage } from "@plumbline-kit/platform/deepcrawl-package";
import { describe, expect, it } from "vitest";
import { useMock } from "./harness.ts";

const h = useMock({
  clock: "manual",
  startTime: Date.parse("2026-11-25T12:00:00Z"),
  deepcrawlSteps: { queuedMs: 1000, waitingMs: 2000, processingMs: 3000 },
});

type Status = {
  taskId: string;
  status: string;
  success?: boolean;
  error?: string | null;
  zipUrl?: string | null;
  r2Key?: string;
};

const status = async (taskId: string) => (await h.get(`/deepcrawl/status/${taskId}`)).body as Status;
const advance = (ms: number) => h.admin("POST", "/clock/advance", { ms });

describe("deepcrawl tasks", () => {
  it("moves queued → waiting → processing → completed as the mock clock passes the step durations", async () => {
    const r = await h.post("/deepcrawl", { url: "https://docs.example.com/", type: "all" });
    expect(r.status).toBe(202);
    const { taskId, status: first } = r.body as { taskId: string; status: string };
    expect(first).toBe("queued");
    expect(taskId).toMatch(/^dc_[0-9a-f]{32}$/);
    const seen: string[] = [];
    for (const step of [0, 999, 1, 1999, 1, 2999, 1]) {
      await advance(step);
      seen.push((await status(taskId)).status);
    }
    expect(seen).toEqual(["queued", "queued", "waiting", "waiting", "processing", "processing", "completed"]);
    const done = await status(taskId);
    expect(done).toMatchObject({ success: true, error: null, r2Key: `deepcrawl/${taskId}.zip` });
    // a signed link that expires an hour later on the mock clock (deepcrawl-link.ts)
    const expires = Math.ceil((Date.parse("2026-11-25T12:00:00Z") + 6000 + 3_600_000) / 1000);
    expect(done.zipUrl).toMatch(
      new RegExp(`^${h.mock.url}/deepcrawl/files/${taskId}\\.zip\\?expires=${expires}&signature=[\\w-]{43}$`),
    );
  });

  it("serves a real zip at zipUrl: manifest.json plus one Markdown document per page", async () => {
    const r = await h.post("/deepcrawl", { url: "https://shop.example.org/" });
    const { taskId } = r.body as { taskId: string };
    expect((await h.call("GET", `/deepcrawl/files/${taskId}.zip`, { key: null })).status).toBe(404); // not yet
    await advance(10_000);
    const { zipUrl } = await status(taskId);
    const res = await fetch(zipUrl as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.subarray(0, 4).toString("hex")).toBe("504b0304");
    const { manifest, documents } = readDeepcrawlPackage(zip);
    const schema = h.contract.document.components?.schemas?.DeepcrawlManifest;
    expect(h.contract.validators.compile(schema as JsonSchema)(manifest)).toBeNull();
    const m = manifest as {
      taskId: string;
      url: string;
      type: string;
      pages: Array<{ url: string; path: string | null; bytes: number }>;
    };
    expect(m).toMatchObject({ taskId, url: "https://shop.example.org/", type: "sitemap" });
    expect(m.pages.length).toBeGreaterThan(0);
    for (const p of m.pages.filter((x) => x.path)) {
      const doc = documents.get(p.path as string) as string;
      expect(Buffer.byteLength(doc)).toBe(p.bytes);
      expect(doc.startsWith("---\n")).toBe(true);
      expect(doc).toContain(`url: "${p.url}"`);
      expect(new URL(p.url).hostname).toBe("shop.example.org");
    }
  });

  it("refuses a tampered or expired zipUrl with 404 in the error shape; a later poll re-signs the same package", async () => {
    const { taskId } = (await h.post("/deepcrawl", { url: "https://shop.example.org/" })).body as { taskId: string };
    await advance(10_000);
    const link = (await status(taskId)).zipUrl as string;
    const first = Buffer.from(await (await fetch(link)).arrayBuffer());
    const path = link.slice(h.mock.url.length);
    const tampered = path.replace(/signature=(.)/, (_m, c: string) => `signature=${c === "A" ? "B" : "A"}`);
    const otherTask = path.replace(taskId, `dc_${"0".repeat(32)}`);
    for (const bad of [tampered, otherTask, path.replace(/&signature=.*/, ""), `/deepcrawl/files/${taskId}.zip`]) {
      const r = await h.call("GET", bad, { key: null });
      expect(r.status, bad).toBe(404);
      expect(r.body).toMatchObject({ ok: false, code: "PLB_TASK_NOT_FOUND", message: expect.any(String) });
    }
    await advance(3_600_000);
    const expired = await h.call("GET", path, { key: null });
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ ok: false, code: "PLB_TASK_NOT_FOUND" });
    const again = await status(taskId);
    expect(again.status).toBe("completed");
    expect(again.zipUrl).not.toBe(link);
    expect(Buffer.from(await (await fetch(again.zipUrl as string)).arrayBuffer()).equals(first)).toBe(true);
  });

  it("fails a task whose site answers an error, or when the request asks for it, with an error text", async () => {
    const a = (await h.post("/deepcrawl", { url: "https://example.com/status/500" })).body as { taskId: string };
    const b = (await h.post("/deepcrawl", { url: "https://example.com/" }, undefined, { prefer: "deepcrawl=failed" }))
      .body as {
      taskId: string;
    };
    await advance(10_000);
    for (const id of [a.taskId, b.taskId]) {
      const s = await status(id);
      expect(s).toMatchObject({ status: "failed", success: false, zipUrl: null });
      expect(s.error).toEqual(expect.any(String));
    }
  });

  it("refunds a task that ends failed, once, and keeps the charge of one that completes (D-charging)", async () => {
    const before = await h.balance();
    const failed = (
      await h.post("/deepcrawl", { url: "https://example.com/" }, undefined, { prefer: "deepcrawl=failed" })
    ).body as { taskId: string };
    const done = (await h.post("/deepcrawl", { url: "https://example.com/" })).body as { taskId: string };
    expect(await h.balance()).toBe(before - 40);
    await advance(10_000);
    expect(await status(failed.taskId)).toMatchObject({ status: "failed" });
    expect(await status(done.taskId)).toMatchObject({ status: "completed" });
    expect(await h.balance()).toBe(before - 20);
    await status(failed.taskId);
    expect(await h.balance(), "polled again: refunded once").toBe(before - 20);
  });

  it("lets a test choose the outcome of the next tasks through the admin API", async () => {
    await h.admin("PUT", "/deepcrawl/next", { outcome: "failed", error: "quota of pages exceeded" });
    const { taskId } = (await h.post("/deepcrawl", { url: "https://example.com/" })).body as { taskId: string };
    await h.admin("DELETE", "/deepcrawl/next");
    await advance(10_000);
    expect(await status(taskId)).toMatchObject({ status: "failed", error: "quota of pages exceeded" });
  });

  it("answers an unknown task id with 404 and status not_found", async () => {
    const r = await h.get("/deepcrawl/status/dc_00000000000000000000000000000000");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      taskId: "dc_00000000000000000000000000000000",
      status: "not_found",
      success: false,
      ok: false,
    });
  });

  it("changes step durations through the admin API", async () => {
    await h.admin("PUT", "/deepcrawl/steps", { queuedMs: 0, waitingMs: 0, processingMs: 100 });
    const { taskId } = (await h.post("/deepcrawl", { url: "https://example.com/" })).body as { taskId: string };
    expect((await status(taskId)).status).toBe("processing");
    await advance(100);
    expect((await status(taskId)).status).toBe("completed");
  });
});
