// POST /screenshot (interface-spec "POST /screenshot"; issue 11): a real screenshot in headless Chromium, in a
// fresh context of the shared browser pool (browser-pool.ts: 503 when saturated), every request of the page
// through the guarded http client (D-target-refusal). Failures are values and the platform charges none of them
// (D-charging). Matches Engines["screenshot"].
import type { Contract, Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult, ScreenshotImage } from "@plumbline-kit/platform/engines";
import type { BrowserPool } from "./browser-pool.ts";
import type { HttpClient } from "./http-client.ts";
import { captureScreenshot } from "./screenshot-capture.ts";
import { encodeShot } from "./screenshot-encode.ts";
import { pageOptions, screenshotDefaults, shotSettings } from "./screenshot-options.ts";

export interface ScreenshotEngineOptions {
  contract: Contract;
  pool: BrowserPool;
  http: HttpClient;
  /** bytes all of one page's requests may read together (default 32 MiB: a screenshot loads images and fonts) */
  budgetBytes?: number;
  /** the tallest image in device pixels (default 16 383, WebP's limit) */
  maxHeightPx?: number;
  /** the capture itself, once the page is ready (default 15 s) */
  captureTimeoutMs?: number;
}

export function createScreenshotEngine(options: ScreenshotEngineOptions) {
  const defaults = screenshotDefaults(options.contract);
  const capture = {
    http: options.http,
    budgetBytes: options.budgetBytes ?? 32 * 1024 * 1024,
    maxHeightPx: options.maxHeightPx ?? 16_383,
    captureTimeoutMs: options.captureTimeoutMs ?? 15_000,
  };
  return async function screenshot(
    request: Schemas["ScreenshotRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<ScreenshotImage>> {
    const s = shotSettings(request, defaults);
    const shot = await options.pool.withPage(pageOptions(s), (page, context) =>
      captureScreenshot(page, context, s, capture, ctx.signal),
    );
    if (!shot.ok) return shot;
    try {
      return { ok: true, value: await encodeShot(shot.value.body, s, !s.fullPage && !s.selector) };
    } catch (err) {
      const message = `The screenshot could not be encoded: ${String((err as Error)?.message ?? err)}`;
      return { ok: false, code: "PLB_UPSTREAM_FAILED", message };
    }
  };
}
