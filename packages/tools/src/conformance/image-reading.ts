// Reading an image as a client does: the format and pixel size from the header bytes (PNG IHDR, JPEG SOFn, WebP
// VP8 / VP8L / VP8X: the contract registry's reader, spec/checks/image-header.ts), then a full decode through
// sharp, so a body whose header is right but whose data is corrupt does not pass (no trust in one decoder's view).

export { type ImageHeader, imageComplete, readImageHeader } from "@plumbline-kit/contract/checks/image-header";

export type Decoded =
  | { ok: true; format: string; width: number; height: number }
  | { ok: false; error: string; noDecoder?: true };

/** What a check says when it cannot read pixels: the decoder is an optional peer of the tools (21 MB). */
export const NO_DECODER = "no image decoder to read the screenshot's pixels: npm install --save-dev sharp";

/** sharp (an optional peer: loaded on first use, so the CLI starts without it), or null when it is not installed. */
export async function imageDecoder(): Promise<typeof import("sharp")["default"] | null> {
  try {
    return (await import("sharp")).default;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && /'sharp'/.test((err as Error).message))
      return null;
    throw err;
  }
}

/** Decodes every pixel (sharp fails on truncated or corrupt data); the format and size the decoder saw. */
export async function decodeImage(bytes: Buffer): Promise<Decoded> {
  const sharp = await imageDecoder();
  if (!sharp) return { ok: false, error: NO_DECODER, noDecoder: true };
  try {
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
  const sharp = await imageDecoder();
  if (!sharp) return null;
  try {
    const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (x < 0 || y < 0 || x >= info.width || y >= info.height) return null;
    const i = (y * info.width + x) * info.channels;
    return { r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3] };
  } catch {
    return null;
  }
}
