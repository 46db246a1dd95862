// The suite's own image header reader against images sharp encodes in every variant a target may send (PNG, baseline
// and progressive JPEG, lossy VP8, lossless VP8L and extended VP8X WebP), and the full decode refusing cut data.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeImage, pixelAt, readImageHeader } from "../image-reading.ts";

const W = 37;
const H = 23;
const image = (channels: 3 | 4) =>
  sharp({ create: { width: W, height: H, channels, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } });

describe("reading images", () => {
  it("reads the format and size of every variant from the header", async () => {
    const variants: Array<[string, Buffer]> = [
      ["png", await image(3).png().toBuffer()],
      ["jpeg", await image(3).jpeg().toBuffer()],
      ["jpeg", await image(3).jpeg({ progressive: true }).toBuffer()],
      ["webp", await image(3).webp({ lossless: false }).toBuffer()],
      ["webp", await image(3).webp({ lossless: true }).toBuffer()],
      ["webp", await image(4).webp({ lossless: false }).toBuffer()],
    ];
    const chunks = new Set(variants.filter(([f]) => f === "webp").map(([, b]) => b.toString("latin1", 12, 16)));
    expect(chunks).toEqual(new Set(["VP8 ", "VP8L", "VP8X"]));
    for (const [format, bytes] of variants) expect(readImageHeader(bytes)).toEqual({ format, width: W, height: H });
    expect(readImageHeader(Buffer.from("<html>not an image</html>"))).toBeNull();
  });

  it("decodes whole images and refuses cut ones; reads a pixel", async () => {
    const png = await image(4).png().toBuffer();
    expect(await decodeImage(png)).toEqual({ ok: true, format: "png", width: W, height: H });
    const cut = png.subarray(0, Math.floor(png.length / 2));
    expect(readImageHeader(cut)).not.toBeNull();
    expect((await decodeImage(cut)).ok).toBe(false);
    expect(await pixelAt(png, 3, 3)).toMatchObject({ r: 10, g: 120, b: 200 });
    expect(await pixelAt(png, W, 0)).toBeNull();
  });
});
