// Reading an image's header as a client does: the format and pixel size (PNG IHDR, JPEG SOFn, WebP VP8 / VP8L /
// VP8X), and whether the bytes reach the format's end (PNG's IEND chunk, JPEG's EOI marker, WebP's RIFF length), so
// a truncated body does not pass. A full decode of every pixel is the conformance suite's (sharp), not the registry's.

export interface ImageHeader {
  /** the format's short name, as the screenshot request spells it (png, jpeg, webp) */
  format: string;
  width: number;
  height: number;
}

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

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
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const b = view(bytes);
  return png(b) ?? jpeg(b) ?? webp(b);
}

/** Whether the bytes of an image of `format` reach the format's end (a cut-off body does not). */
export function imageComplete(format: string, bytes: Uint8Array): boolean {
  const b = view(bytes);
  if (format === "png")
    return b.length >= 12 && b.subarray(b.length - 12).toString("hex") === "0000000049454e44ae426082";
  if (format === "jpeg") return b.length >= 2 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9;
  if (format === "webp") return b.length >= 12 && b.readUInt32LE(4) + 8 === b.length;
  return false;
}
