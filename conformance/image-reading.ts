// Reading an image as a client does: the format and pixel size from the header bytes (PNG IHDR, JPEG SOFn, WebP
// VP8 / VP8L / VP8X), then a full decode through sharp, so a body whose header is right but whose data is cut or
// corrupt does not pass. The header parser is the suite's own (no trust in one decoder's view of the size).

export interface ImageHeader {
  /** the format's short name, as the screenshot request spells it (png, jpeg, webp) */
  format: string;
  width: number;
  height: number;
}

function png(b: Buffer): ImageHeader | null {
  if (b.length < 24 || b.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") return null;
  if (b.subarray(12, 16).toString("latin1") !== "IHDR") return null;
  return { format: "png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

// SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Buffer): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    const length = b.readUInt16BE(i + 2);
    if (SOF.has(marker)) {
      if (i + 9 > b.length) return null;
      return { format: "jpeg", height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

function webp(b: Buffer): ImageHeader | null {
  if (b.length < 30 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP") return null;
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    // frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 scale bits each)
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { format: "webp", width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { format: "webp", width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  return null;
}

/** The format and size the header declares, or null when the bytes start no PNG, JPEG or WebP image. */
export function readImageHeader(bytes: Buffer): ImageHeader | null {
  return png(bytes) ?? jpeg(bytes) ?? webp(bytes);
}

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
