// POST /screenshot through the reference server (issue 11): a real image answered with its content type and
// charged 2 credits; a refused target 403, a slow page 504, an unloadable one 502 and a saturated pool 503, each
// in the contract's error shape and uncharged (D-charging). The engine's own tests measure the images.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningReference, startReference } from "../start-reference.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";

let ref: RunningReference;
let site: FixtureSite;
let dir: string;

const PAGE = "<!doctype html><html><body><h1>Plumbline</h1><p>A page to shoot.</p></body></html>";

async function shoot(body: unknown) {
  const res = await fetch(`${ref.url}/screenshot`, {
    method: "POST",
    headers: { authorization: "Bearer k", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    body: Buffer.from(await res.arrayBuffer()),
  };
}

const usage = async () =>
  ((await (await fetch(`${ref.url}/usage`, { headers: { authorization: "Bearer k" } })).json()) as { usage: number })
    .usage;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-ref-shot-"));
  site = await serveSite({ "/": { body: PAGE }, "/slow": { body: PAGE, delayMs: 30_000 } });
  ref = await startReference({
    port: 0,
    dataDir: dir,
    allowPrivateNetwork: true,
    keys: [{ key: "k", credits: 1000 }],
    rateLimits: { perAccount: 0 },
    browserContexts: 1,
    browserQueue: 0,
  });
}, 90_000);
afterAll(async () => {
  await ref?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("POST /screenshot on the reference", () => {
  it("answers the image, charged 2 credits", async () => {
    const before = await usage();
    const r = await shoot({ url: `${site.url}/`, format: "webp", viewport: { width: 640, height: 400 } });
    expect(r.status).toBe(200);
    expect(r.type).toBe("image/webp");
    expect(await sharp(r.body).metadata()).toMatchObject({ format: "webp", width: 640, height: 400 });
    expect(before - (await usage())).toBe(2);
  });

  it("answers 403, 504, 502 and 503 in the error shape, charging none of them", async () => {
    const contract = await loadContract();
    const before = await usage();
    const refused = await shoot({ url: "http://169.254.169.254/latest/meta-data/" });
    // the slow shot holds the one context from the moment its page is asked for until its timeout (6 s; the page
    // would take 30 s): the next shot is refused in that time, however long this machine takes to send it
    const slow = shoot({ url: `${site.url}/slow`, timeout_ms: 6000 });
    await vi.waitFor(() => expect(site.hits).toContain("/slow"), { timeout: 30_000, interval: 20 });
    const busy = await shoot({ url: `${site.url}/` });
    const cases = [
      [refused, 403, "PLB_TARGET_FORBIDDEN"],
      [busy, 503, "PLB_SERVICE_UNAVAILABLE"],
      [await slow, 504, "PLB_TARGET_TIMEOUT"],
      [await shoot({ url: "http://127.0.0.1:9/" }), 502, "PLB_UPSTREAM_FAILED"],
    ] as const;
    for (const [r, status, code] of cases) {
      expect(r.status, code).toBe(status);
      const json = JSON.parse(r.body.toString());
      expect(json).toMatchObject({ ok: false, code });
      expect(contract.validators.checkResponse("screenshot", status, r.type, json), code).toBeNull();
    }
    expect(await usage()).toBe(before);
  });
});
