// Reading an image as a client does: the format and pixel size from the header bytes (PNG IHDR, JPEG SOFn, WebP
// VP8 / VP8L / VP8X: the contract registry's reader, spec/checks/image-header.ts), then a full decode through
// sharp, so a body whose header is right but whose data is corrupt does not pass (no trust in one decoder's view).

export { type ImageHeader, imageComplete, readImageHeader } from "@plumbline-kit/contract/checks/image-header";

export type Decoded = { ok: true; format: string; width: number; height: number } | { ok: false; error: string };

/** Decodes every pixel (sharp fails on truncated or corrupt data); the format and size the decoder saw. */
export async function decodeImage(bytes: Buffer): Promise<Decoded> {
  try {
    // loaded on first use: the CLI starts without the native image library
    const { default: sharp } = await import("sharp");
    const image = sharp(bytes, { failOn: "error", limitInputPixels: 6000 * 6000 * 4 });
    const meta = await image.metadata();
    const { info } = await image.raw().toBuffer({ resolveWithObject: true });
    return { ok: true, format: meta.format ?? "unknown", width: info.width, height: info.height };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export interface Pixel {
  r: number;
  g: number;
  b: number;
  /** 255 when the image has no alpha channel */
  a: number;
}

/** The colour of one pixel (x, y from the top left), or null when the image does not decode or is smaller. */
export async function pixelAt(bytes: Buffer, x: number, y: number): Promise<Pixel | null> {
  try {
    const { default: sharp } = await import("sharp");
    const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (x < 0 || y < 0 || x >= info.width || y >= info.height) return null;
    const i = (y * info.width + x) * info.channels;
    return { r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3] };
  } catch {
    return null;
  }
}
