// The fake page a synthetic screenshot shows, drawn as raw pixels (sharp encodes them): a header bar in a
// colour of the site, a title, text-line blocks and image placeholders, a footer on full pages. Raw fills are
// native Buffer.fill calls, which keeps a 1440×900 frame to a few milliseconds.
import type { Rng } from "./rng.ts";

export type Rgb = [number, number, number];

export interface Palette {
  background: Rgb;
  text: Rgb;
  title: Rgb;
  block: Rgb;
  header: Rgb;
}

export interface Canvas {
  width: number;
  height: number;
  /** 4 with an alpha channel (transparent background), else 3 */
  channels: 3 | 4;
  data: Buffer;
}

export function palette(rng: Rng, dark: boolean): Palette {
  const hue: Rgb = [rng.int(20, 200), rng.int(60, 180), rng.int(120, 230)];
  return dark
    ? {
        background: [18, 18, 20],
        text: [70, 72, 78],
        title: [200, 200, 205],
        block: [45, 48, 56],
        header: hue.map((c) => Math.round(c * 0.55)) as Rgb,
      }
    : { background: [252, 252, 252], text: [205, 207, 212], title: [40, 42, 48], block: [225, 230, 238], header: hue };
}

export function createCanvas(width: number, height: number, background: Rgb, transparent: boolean): Canvas {
  const channels = transparent ? 4 : 3;
  const data = Buffer.alloc(width * height * channels);
  if (!transparent) data.fill(Buffer.from(background));
  return { width, height, channels, data };
}

export function fillRect(c: Canvas, x: number, y: number, w: number, h: number, color: Rgb): void {
  const x0 = Math.max(0, Math.round(x));
  const x1 = Math.min(c.width, Math.round(x + w));
  const y0 = Math.max(0, Math.round(y));
  const y1 = Math.min(c.height, Math.round(y + h));
  if (x1 <= x0 || y1 <= y0) return;
  const px = Buffer.from(c.channels === 4 ? [...color, 255] : color);
  for (let row = y0; row < y1; row++) {
    c.data.fill(px, (row * c.width + x0) * c.channels, (row * c.width + x1) * c.channels);
  }
}

/** Lays out a page: everything in CSS pixels times `scale` (device_scale_factor). */
export function drawPage(c: Canvas, rng: Rng, p: Palette, scale: number, headerHeight: number, footer: boolean): void {
  fillRect(c, 0, 0, c.width, headerHeight * scale, p.header);
  const left = Math.max(24, c.width / scale / 10) * scale;
  const column = Math.min(c.width - 2 * left, 880 * scale);
  let y = (headerHeight + 48) * scale;
  fillRect(c, left, y, column * (0.45 + rng.float() * 0.35), 30 * scale, p.title);
  y += 64 * scale;
  // a viewport capture ends mid-page; only a full-page one reaches the footer
  const bottom = footer ? c.height - 96 * scale : c.height;
  while (y < bottom) {
    if (rng.chance(0.25)) {
      const h = Math.min(column * 0.45, bottom - y);
      fillRect(c, left, y, column, h, p.block);
      y += h + 32 * scale;
      continue;
    }
    for (let line = rng.int(3, 6); line > 0 && y < bottom; line--) {
      fillRect(
        c,
        left,
        y,
        column * (line === 1 ? 0.3 + rng.float() * 0.5 : 0.85 + rng.float() * 0.15),
        12 * scale,
        p.text,
      );
      y += 24 * scale;
    }
    y += 24 * scale;
  }
  if (footer) fillRect(c, 0, c.height - 64 * scale, c.width, 64 * scale, p.block);
}

/** An element capture (`selector`): a card with a heading and a few lines. */
export function drawElement(c: Canvas, rng: Rng, p: Palette, scale: number): void {
  fillRect(c, 16 * scale, 20 * scale, (c.width - 32 * scale) * (0.4 + rng.float() * 0.3), 24 * scale, p.title);
  for (let i = 0; i < 4; i++) {
    fillRect(
      c,
      16 * scale,
      (68 + i * 28) * scale,
      (c.width - 32 * scale) * (0.6 + rng.float() * 0.4),
      12 * scale,
      p.text,
    );
  }
}

/** Paints RGBA pixels (a rendered text label) over the canvas at (left, top), blending by their alpha. */
export function blend(c: Canvas, rgba: Buffer, width: number, height: number, left: number, top: number): void {
  for (let y = 0; y < height && top + y < c.height; y++) {
    for (let x = 0; x < width && left + x < c.width; x++) {
      const src = (y * width + x) * 4;
      const alpha = rgba[src + 3] / 255;
      if (alpha === 0) continue;
      const dst = ((top + y) * c.width + left + x) * c.channels;
      for (let k = 0; k < 3; k++) c.data[dst + k] = Math.round(rgba[src + k] * alpha + c.data[dst + k] * (1 - alpha));
      if (c.channels === 4) c.data[dst + 3] = Math.max(c.data[dst + 3], rgba[src + 3]);
    }
  }
}
