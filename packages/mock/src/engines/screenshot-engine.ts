// Synthetic /screenshot (interface-spec, POST /screenshot): a real, decodable image of the requested format
// (png by default) sized viewport × device_scale_factor (rounded), three viewports tall for `full_page`, and
// 600×200 × device_scale_factor for a `selector` element. `color_scheme: dark` darkens the page,
// `omit_background` makes the background transparent in png and webp (jpeg has no alpha), and `quality`
// applies to jpeg and webp only (D-screenshot-quality). Viewport defaults are read from the contract.

import type { Contract, Schemas } from "@plumbline-kit/contract";
import { htmlEscape } from "@plumbline-kit/contract/report/html";
import type { EngineContext, EngineResult, ScreenshotImage } from "@plumbline-kit/platform/engines";
import type { default as Sharp } from "sharp";
import { createRng } from "./rng.ts";
import { blend, type Canvas, createCanvas, drawElement, drawPage, palette } from "./screenshot-canvas.ts";
import { targetFailure } from "./target-status.ts";

const HEADER = 64;
const FULL_PAGE_VIEWPORTS = 3;
const ELEMENT = { width: 600, height: 200 };

/** sharp (libvips), loaded at the first screenshot rather than with the mock: ~0.1 CPU-seconds of every start. */
let sharpModule: Promise<typeof Sharp> | undefined;
const loadSharp = () => {
  sharpModule ??= import("sharp").then((m) => m.default);
  return sharpModule;
};

export function createScreenshotEngine(contract: Contract) {
  const vp = contract.document.components?.schemas?.ScreenshotViewport?.properties as Record<
    string,
    { default?: unknown }
  >;
  const defaults = {
    width: Number(vp?.width?.default ?? 1440),
    height: Number(vp?.height?.default ?? 900),
    scale: Number(vp?.device_scale_factor?.default ?? 1),
  };

  return async (request: Schemas["ScreenshotRequest"], ctx: EngineContext): Promise<EngineResult<ScreenshotImage>> => {
    const failure = targetFailure("screenshot", request.url);
    if (failure) return failure;
    const scale = request.viewport?.device_scale_factor ?? defaults.scale;
    const cssWidth = request.selector ? ELEMENT.width : (request.viewport?.width ?? defaults.width);
    const viewportHeight = request.viewport?.height ?? defaults.height;
    const cssHeight = request.selector
      ? ELEMENT.height
      : viewportHeight * (request.full_page ? FULL_PAGE_VIEWPORTS : 1);
    const width = Math.round(cssWidth * scale);
    const height = Math.round(cssHeight * scale);
    const format = request.format ?? "png";
    const transparent = request.omit_background === true && format !== "jpeg";

    const rng = createRng(ctx.seed, "screenshot", request.url);
    const colors = palette(rng.fork("palette"), request.color_scheme === "dark");
    const canvas = createCanvas(width, height, colors.background, transparent);
    if (request.selector) drawElement(canvas, rng.fork("element"), colors, scale);
    else drawPage(canvas, rng.fork("page"), colors, scale, HEADER, request.full_page === true);

    if (!request.selector) await drawUrlLabel(canvas, request.url, scale, request.color_scheme === "dark");
    const sharp = await loadSharp();
    const image = sharp(canvas.data, { raw: { width, height, channels: canvas.channels } });
    const quality = request.quality;
    const body =
      format === "jpeg"
        ? await image.jpeg({ quality: quality ?? 80 }).toBuffer()
        : format === "webp"
          ? await image.webp({ quality: quality ?? 80, effort: 0 }).toBuffer()
          : await image.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
    return { ok: true, value: { contentType: `image/${format}`, body } };
  };
}

/**
 * The page's address written in the header bar, as a browser's title area would show it. The SVG text is
 * rendered alone and blended into the raw canvas, so an opaque page keeps an alpha-free image.
 */
async function drawUrlLabel(canvas: Canvas, url: string, scale: number, dark: boolean): Promise<void> {
  const left = Math.round(24 * scale);
  const labelWidth = Math.min(canvas.width - left, Math.round(900 * scale));
  const labelHeight = Math.min(canvas.height, Math.round(HEADER * scale));
  if (labelWidth < 1 || labelHeight < 1) return;
  const fontSize = Math.round(18 * scale);
  const maxChars = Math.max(4, Math.floor(labelWidth / (fontSize * 0.6)));
  const text = url.length > maxChars ? `${url.slice(0, maxChars - 1)}…` : url;
  const escaped = htmlEscape(text);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth}" height="${labelHeight}">` +
    `<text x="0" y="${Math.round(labelHeight / 2 + fontSize / 3)}" font-family="DejaVu Sans, Arial, sans-serif" ` +
    `font-size="${fontSize}" fill="${dark ? "#d8d8dc" : "#ffffff"}">${escaped}</text></svg>`;
  const sharp = await loadSharp();
  const label = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  blend(canvas, label.data, label.info.width, label.info.height, left, 0);
}
