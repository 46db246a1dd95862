// A ScreenshotRequest with every default of the contract filled in (spec/openapi.yaml ScreenshotRequest and
// ScreenshotViewport), read from the document so nobody re-types them, and the browser context it asks for.

import type { Contract, JsonSchema, Schemas } from "@plumbline-kit/contract";
import type { PageOptions } from "./browser-pool.ts";
import type { WaitUntil } from "./navigate-page.ts";

type Req = Required<Schemas["ScreenshotRequest"]>;

export interface ShotSettings {
  url: string;
  format: Req["format"];
  fullPage: boolean;
  width: number;
  height: number;
  scale: number;
  waitUntil: WaitUntil;
  waitForSelector: string | null;
  selector: string | null;
  delayMs: number;
  timeoutMs: number;
  /** jpeg and webp only (D-screenshot-quality) */
  quality: number | null;
  omitBackground: boolean;
  colorScheme: Req["color_scheme"];
  animations: Req["animations"];
}

/** The defaults of the screenshot request, from the contract. */
export function screenshotDefaults(contract: Contract) {
  const schemas = contract.document.components?.schemas ?? {};
  const req = ((schemas.ScreenshotRequest as JsonSchema).properties ?? {}) as Record<string, JsonSchema>;
  const vp = ((schemas.ScreenshotViewport as JsonSchema).properties ?? {}) as Record<string, JsonSchema>;
  const d = (s: JsonSchema | undefined) => s?.default as never;
  return {
    format: d(req.format) as ShotSettings["format"],
    fullPage: d(req.full_page) as boolean,
    width: d(vp.width) as number,
    height: d(vp.height) as number,
    scale: d(vp.device_scale_factor) as number,
    waitUntil: d(req.wait_until) as WaitUntil,
    delayMs: d(req.delay_ms) as number,
    timeoutMs: d(req.timeout_ms) as number,
    omitBackground: d(req.omit_background) as boolean,
    colorScheme: d(req.color_scheme) as ShotSettings["colorScheme"],
    animations: d(req.animations) as ShotSettings["animations"],
  };
}

export type ShotDefaults = ReturnType<typeof screenshotDefaults>;

/** The default JPEG and WebP quality when none is asked (the mock's too). */
export const DEFAULT_QUALITY = 80;

export function shotSettings(r: Schemas["ScreenshotRequest"], d: ShotDefaults): ShotSettings {
  const format = r.format ?? d.format;
  return {
    url: r.url,
    format,
    fullPage: r.full_page ?? d.fullPage,
    width: r.viewport?.width ?? d.width,
    height: r.viewport?.height ?? d.height,
    scale: r.viewport?.device_scale_factor ?? d.scale,
    waitUntil: r.wait_until ?? d.waitUntil,
    waitForSelector: r.wait_for_selector ?? null,
    selector: r.selector ?? null,
    delayMs: r.delay_ms ?? d.delayMs,
    timeoutMs: r.timeout_ms ?? d.timeoutMs,
    quality: format === "png" ? null : (r.quality ?? DEFAULT_QUALITY),
    // jpeg has no alpha channel
    omitBackground: format !== "jpeg" && (r.omit_background ?? d.omitBackground),
    colorScheme: r.color_scheme ?? d.colorScheme,
    animations: r.animations ?? d.animations,
  };
}

export function pageOptions(s: ShotSettings): PageOptions {
  return {
    viewport: { width: s.width, height: s.height },
    deviceScaleFactor: s.scale,
    colorScheme: s.colorScheme,
    reducedMotion: s.animations === "disabled" ? "reduce" : "no-preference",
  };
}
