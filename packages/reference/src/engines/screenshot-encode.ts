// The captured bytes in the requested format and size. Chromium captures png and jpeg (what Playwright's capture
// path offers, with omit_background, animations, full_page and element clips); webp is encoded from the png by
// sharp (already a dependency), which keeps the alpha channel of omit_background. A viewport shot is held to exactly
// viewport × device_scale_factor (rounded) pixels, should the browser round a fractional scale otherwise.

import type { ScreenshotImage } from "@plumbline-kit/platform/engines";
import type { ShotSettings } from "./screenshot-options.ts";

export async function encodeShot(png: Buffer, s: ShotSettings, exactViewport: boolean): Promise<ScreenshotImage> {
  // sharp (~0.1 s to load) at the first screenshot, not with every reference
  const { default: sharp } = await import("sharp");
  const contentType = `image/${s.format}` as const;
  let resize: { width: number; height: number } | null = null;
  if (exactViewport) {
    const want = { width: Math.round(s.width * s.scale), height: Math.round(s.height * s.scale) };
    const meta = await sharp(png).metadata();
    if (meta.width !== want.width || meta.height !== want.height) resize = want;
  }
  if (s.format !== "webp" && !resize) return { contentType, body: png };
  let image = sharp(png);
  if (resize) image = image.resize({ ...resize, fit: "fill" });
  const quality = s.quality ?? 80;
  const body =
    s.format === "webp"
      ? await image.webp({ quality, effort: 2 }).toBuffer()
      : s.format === "jpeg"
        ? await image.jpeg({ quality }).toBuffer()
        : await image.png().toBuffer();
  return { contentType, body };
}
