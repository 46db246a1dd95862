// POST /screenshot's engine in real Chromium (issue 11): fixture pages on 127.0.0.1 shot, decoded and measured with
// sharp; every request of the page through the guard; the pool's bound, timeouts and load failures as statuses.

import { loadContract, type Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult, ScreenshotImage } from "@plumbline-kit/platform/engines";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { chromiumChildren, SHOT_FIXTURE, SHOT_ROUTES } from "../test/screenshot-fixtures.ts";
import { forbiddenReason } from "./address-policy.ts";
import { type BrowserPool, createBrowserPool } from "./browser-pool.ts";
import { createHttpClient, type HttpClient } from "./http-client.ts";
import { createScreenshotEngine } from "./screenshot-engine.ts";

const ctx: EngineContext = { requestId: "test", variability: "normal", seed: 1 };

let site: FixtureSite;
let internal: FixtureSite;
let http: HttpClient;
let pool: BrowserPool;
let shoot: (r: Schemas["ScreenshotRequest"]) => Promise<EngineResult<ScreenshotImage>>;

async function image(r: Schemas["ScreenshotRequest"]) {
  const shot = await shoot(r);
  if (!shot.ok) throw new Error(`${shot.code}: ${shot.message}`);
  const meta = await sharp(shot.value.body).metadata();
  return { ...shot.value, meta };
}

async function pixel(body: Buffer, x: number, y: number) {
  const { data, info } = await sharp(body).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return { r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3] };
}

beforeAll(async () => {
  internal = await serveSite(
    { "/secret.png": { type: "image/png", body: "x" }, "/": { body: "internal" } },
    "127.0.0.2",
  );
  site = await serveSite(SHOT_ROUTES(internal.url));
  // the fixture's address counts as public; 127.0.0.2 stays loopback, hence refused
  http = createHttpClient({ addressPolicy: (ip) => (ip === "127.0.0.1" ? null : forbiddenReason(ip)) });
  // the reference's default: most shots below run in a spare context (opened ahead, routes in place), which must
  // honour the asked viewport, scale and media exactly as a fresh one; the pools further down run without spares
  pool = createBrowserPool({ spares: 2 });
  shoot = (r) => createScreenshotEngine({ contract: contractOf, pool, http })(r, ctx);
}, 90_000);
let contractOf: Awaited<ReturnType<typeof loadContract>>;
beforeAll(async () => {
  contractOf = await loadContract();
});
afterAll(async () => {
  await pool?.close();
  await http?.close();
  await Promise.all([site?.close(), internal?.close()]);
});

describe("screenshot: the image", () => {
  it("is a png of the default viewport (1440×900) when nothing is asked", async () => {
    const shot = await image({ url: `${site.url}/shot.html` });
    expect(shot.contentType).toBe("image/png");
    expect(shot.meta).toMatchObject({ format: "png", width: 1440, height: 900 });
  });

  it("measures viewport × device_scale_factor, in jpeg and webp too", async () => {
    const jpeg = await image({
      url: `${site.url}/shot.html`,
      format: "jpeg",
      viewport: { width: 640, height: 400, device_scale_factor: 2 },
    });
    expect(jpeg.meta).toMatchObject({ format: "jpeg", width: 1280, height: 800 });
    const webp = await image({
      url: `${site.url}/shot.html`,
      format: "webp",
      viewport: { width: 800, height: 600, device_scale_factor: 1.5 },
    });
    expect(webp.contentType).toBe("image/webp");
    expect(webp.meta).toMatchObject({ format: "webp", width: 1200, height: 900 });
    const odd = await image({
      url: `${site.url}/shot.html`,
      viewport: { width: 333, height: 211, device_scale_factor: 1.37 },
    });
    expect(odd.meta).toMatchObject({ width: Math.round(333 * 1.37), height: Math.round(211 * 1.37) });
  });

  it("crops to the selector's element, full_page captures the whole document at the viewport's width", async () => {
    const box = await image({
      url: `${site.url}/shot.html`,
      selector: "#plb-box",
      viewport: { width: 800, height: 600, device_scale_factor: 2 },
    });
    expect(box.meta).toMatchObject({ width: SHOT_FIXTURE.box.width * 2, height: SHOT_FIXTURE.box.height * 2 });
    const full = await image({
      url: `${site.url}/shot.html`,
      full_page: true,
      viewport: { width: 800, height: 600, device_scale_factor: 1 },
    });
    expect(full.meta).toMatchObject({ width: 800, height: SHOT_FIXTURE.height });
    // an element below the fold is scrolled to and captured whole
    const low = await image({
      url: `${site.url}/shot.html`,
      selector: "#plb-low",
      viewport: { width: 800, height: 600, device_scale_factor: 1 },
    });
    expect(low.meta).toMatchObject({ width: 200, height: 100 });
    expect(await pixel(low.body, 100, 50)).toMatchObject({ r: 0xee, g: 0x22, b: 0x22 });
  });

  it("renders color_scheme dark, omit_background transparent, and jpeg quality changes the bytes", async () => {
    const vp = { width: 800, height: 600, device_scale_factor: 1 };
    const { left, top, width, height } = SHOT_FIXTURE.box;
    const light = await image({ url: `${site.url}/shot.html`, viewport: vp });
    const dark = await image({ url: `${site.url}/shot.html`, viewport: vp, color_scheme: "dark" });
    expect(await pixel(light.body, left + width - 8, top + height - 8)).toMatchObject({ r: 0x1f, g: 0x6f, b: 0xeb });
    expect(await pixel(dark.body, left + width - 8, top + height - 8)).toMatchObject({ r: 0x10, g: 0x10, b: 0x10 });
    expect((await pixel(light.body, 790, 590)).a).toBe(255);
    const clear = await image({ url: `${site.url}/shot.html`, viewport: vp, omit_background: true });
    expect((await pixel(clear.body, 790, 590)).a).toBe(0);
    const clearWebp = await image({
      url: `${site.url}/shot.html`,
      viewport: vp,
      omit_background: true,
      format: "webp",
    });
    expect((await pixel(clearWebp.body, 790, 590)).a).toBe(0);
    const rich = await image({ url: `${site.url}/busy.html`, viewport: vp, format: "jpeg", quality: 95 });
    const poor = await image({ url: `${site.url}/busy.html`, viewport: vp, format: "jpeg", quality: 10 });
    expect(poor.body.length).toBeLessThan(rich.body.length / 2);
    const webpRich = await image({ url: `${site.url}/busy.html`, viewport: vp, format: "webp", quality: 95 });
    const webpPoor = await image({ url: `${site.url}/busy.html`, viewport: vp, format: "webp", quality: 10 });
    expect(webpPoor.body.length).toBeLessThan(webpRich.body.length / 2);
  });

  it("waits for wait_for_selector and delay_ms, and stops animations unless asked to allow them", async () => {
    const vp = { width: 400, height: 300, device_scale_factor: 1 };
    // the page writes #late 600 ms after load, green; without waiting the corner is still white
    const early = await image({ url: `${site.url}/late.html`, viewport: vp });
    expect(await pixel(early.body, 10, 10)).toMatchObject({ r: 255, g: 255, b: 255 });
    const waited = await image({ url: `${site.url}/late.html`, viewport: vp, wait_for_selector: "#late" });
    expect(await pixel(waited.body, 10, 10)).toMatchObject({ r: 0, g: 128, b: 0 });
    const delayed = await image({ url: `${site.url}/late.html`, viewport: vp, delay_ms: 1200 });
    expect(await pixel(delayed.body, 10, 10)).toMatchObject({ r: 0, g: 128, b: 0 });
    // a 60 s colour animation: disabled shows its end state (blue), allowed its start (near red)
    const still = await image({ url: `${site.url}/animated.html`, viewport: vp });
    expect(await pixel(still.body, 10, 10)).toMatchObject({ r: 0, g: 0, b: 255 });
    const moving = await image({ url: `${site.url}/animated.html`, viewport: vp, animations: "allow" });
    expect((await pixel(moving.body, 10, 10)).r).toBeGreaterThan(200);
  });
});

describe("screenshot: failures, as the operation's statuses", () => {
  it("refuses a target, a redirect and a subresource the guard refuses", async () => {
    expect(await shoot({ url: `${internal.url}/` })).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(await shoot({ url: `${site.url}/to-internal` })).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(await shoot({ url: `${site.url}/navigates-internal.html` })).toMatchObject({
      ok: false,
      code: "PLB_TARGET_FORBIDDEN",
    });
    const probe = await image({
      url: `${site.url}/probe.html`,
      viewport: { width: 400, height: 300, device_scale_factor: 1 },
    });
    expect(probe.meta.width).toBe(400);
    expect(internal.hits).toEqual([]);
  });

  it("answers 504 past timeout_ms, for a slow page and for a selector that never appears", async () => {
    // the page answers after 5 s: a shot that waited for it would succeed, so the 504 is the timeout's (no bound on
    // the elapsed time: on a loaded machine the 1 s timeout and the context around it take what they take)
    expect(await shoot({ url: `${site.url}/slow.html`, timeout_ms: 1000 })).toMatchObject({
      ok: false,
      code: "PLB_TARGET_TIMEOUT",
    });
    expect(await shoot({ url: `${site.url}/shot.html`, timeout_ms: 1000, wait_for_selector: "#never" })).toMatchObject({
      ok: false,
      code: "PLB_TARGET_TIMEOUT",
    });
    expect(await shoot({ url: `${site.url}/shot.html`, timeout_ms: 1000, selector: ".absent" })).toMatchObject({
      ok: false,
      code: "PLB_TARGET_TIMEOUT",
    });
  });

  it("answers 502 for a page that cannot be loaded, 400 for a selector that is not CSS", async () => {
    expect(await shoot({ url: "http://127.0.0.1:9/" })).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    for (const url of ["file:///etc/passwd", "data:text/html,<h1>inline</h1>", "chrome://version/"])
      expect(await shoot({ url }), url).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(await shoot({ url: `${site.url}/missing.html` })).toMatchObject({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: expect.stringMatching(/404/),
    });
    expect(await shoot({ url: `${site.url}/shot.html`, selector: "div[" })).toMatchObject({
      ok: false,
      code: "PLB_BAD_VALUE",
    });
  });

  it("closes every context, whatever happened", async () => {
    expect(pool.stats()).toMatchObject({ open: 0, waiting: 0 });
    // a context closes just after its caller has the answer
    await vi.waitFor(() => expect(pool.stats().closing).toBe(0), { timeout: 30_000 });
  });
});

describe("screenshot: the browser pool", () => {
  // one pool of one context, no queue and no spares, for both tests (a Chromium launch less): the 503 needs its
  // context busy; the relaunch counts its launches, and its first shot either launches the browser or finds the one
  // the test before launched, so the kill makes the relaunch the second launch either way
  let small: BrowserPool;
  let engine: ReturnType<typeof createScreenshotEngine>;
  beforeAll(() => {
    small = createBrowserPool({ contexts: 1, queue: 0 });
    engine = createScreenshotEngine({ contract: contractOf, pool: small, http });
  });
  afterAll(() => small?.close());

  it("answers 503 when every context is busy and the queue is full, and serves again once one frees", async () => {
    const slow = engine({ url: `${site.url}/slowish.html` }, ctx);
    // the slow shot holds the one context (its page answers after 1.5 s, after Chromium's start)
    await vi.waitFor(() => expect(small.stats().open).toBe(1), { timeout: 30_000, interval: 10 });
    expect(await engine({ url: `${site.url}/shot.html` }, ctx)).toMatchObject({
      ok: false,
      code: "PLB_SERVICE_UNAVAILABLE",
    });
    expect(await slow).toMatchObject({ ok: true });
    expect(await engine({ url: `${site.url}/shot.html` }, ctx)).toMatchObject({ ok: true });
  });

  it("relaunches a browser that died", async () => {
    expect(await engine({ url: `${site.url}/shot.html` }, ctx)).toMatchObject({ ok: true });
    const before = chromiumChildren();
    expect(before.length).toBeGreaterThan(0);
    for (const pid of before) process.kill(pid, "SIGKILL");
    // the pool has seen the browser go (Playwright's disconnect: once the processes holding its pipe are gone,
    // however long that takes on this machine)
    await vi.waitFor(() => expect(small.stats().browser).toBe(false), { timeout: 30_000, interval: 50 });
    expect(await engine({ url: `${site.url}/shot.html` }, ctx)).toMatchObject({ ok: true });
    expect(small.stats().launches).toBe(2);
  });
});
