import type { Schemas } from "@plumbline-kit/contract";
import type { ScreenshotImage } from "@plumbline-kit/platform/engines";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { contract, ctx, engines, ok } from "../test/engine-fixture.ts";

type Request = Schemas["ScreenshotRequest"];
const shoot = (r: Partial<Request> = {}, seed = 1) =>
  engines.screenshot({ url: "https://example.com/pricing", ...r } as Request, ctx(seed));

async function decoded(image: ScreenshotImage) {
  expect(contract.validators.checkResponse("screenshot", 200, image.contentType, image.body)).toBeNull();
  return sharp(image.body).metadata();
}

/** RGBA of the pixel at (x, y). */
async function pixel(image: ScreenshotImage, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image.body).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
}

describe("synthetic screenshot", () => {
  it("renders a decodable 1440×900 png by default, without alpha", async () => {
    const image = ok(await shoot());
    expect(image.contentType).toBe("image/png");
    expect(await decoded(image)).toMatchObject({ format: "png", width: 1440, height: 900, hasAlpha: false });
  });

  it.each([
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
    ["png", "image/png"],
  ] as const)("encodes %s as %s", async (format, contentType) => {
    const image = ok(await shoot({ format, viewport: { width: 390, height: 844 } as Request["viewport"] }));
    expect(image.contentType).toBe(contentType);
    expect(await decoded(image)).toMatchObject({ format, width: 390, height: 844 });
  });

  it("scales by device_scale_factor, rounding to whole pixels", async () => {
    const twice = ok(await shoot({ viewport: { width: 390, height: 844, device_scale_factor: 2 } }));
    expect(await decoded(twice)).toMatchObject({ width: 780, height: 1688 });
    const odd = ok(await shoot({ format: "jpeg", viewport: { width: 333, height: 201, device_scale_factor: 1.5 } }));
    expect(await decoded(odd)).toMatchObject({ width: 500, height: 302 });
  });

  it("is three viewports tall for full_page and 600×200 × dsf for a selector", async () => {
    expect(await decoded(ok(await shoot({ full_page: true })))).toMatchObject({ width: 1440, height: 2700 });
    const element = ok(
      await shoot({ selector: "#plans", viewport: { device_scale_factor: 2 } as Request["viewport"] }),
    );
    expect(await decoded(element)).toMatchObject({ width: 1200, height: 400 });
  });

  it("draws a dark page for color_scheme dark", async () => {
    const [r, g, b] = await pixel(ok(await shoot({ color_scheme: "dark" })), 5, 880);
    expect(Math.max(r, g, b)).toBeLessThan(60);
    const [lr, lg, lb] = await pixel(ok(await shoot()), 5, 880);
    expect(Math.min(lr, lg, lb)).toBeGreaterThan(200);
  });

  it("makes the background transparent for omit_background in png and webp, not in jpeg", async () => {
    for (const format of ["png", "webp"] as const) {
      const image = ok(await shoot({ format, omit_background: true }));
      expect(await decoded(image)).toMatchObject({ hasAlpha: true });
      expect((await pixel(image, 5, 300))[3]).toBe(0);
    }
    expect(await decoded(ok(await shoot({ format: "jpeg", omit_background: true })))).toMatchObject({
      hasAlpha: false,
    });
  });

  it("applies quality to jpeg and webp and ignores it for png (D-screenshot-quality)", async () => {
    for (const format of ["jpeg", "webp"] as const) {
      const low = ok(await shoot({ format, quality: 5 })).body.length;
      const high = ok(await shoot({ format, quality: 100 })).body.length;
      expect(low).toBeLessThan(high);
    }
    expect(ok(await shoot({ quality: 5 })).body.equals(ok(await shoot({ quality: 100 })).body)).toBe(true);
  });

  it("is deterministic per seed and request", async () => {
    expect(ok(await shoot({}, 3)).body.equals(ok(await shoot({}, 3)).body)).toBe(true);
    expect(ok(await shoot({}, 3)).body.equals(ok(await shoot({}, 4)).body)).toBe(false);
  });

  it.each([
    [403, "PLB_TARGET_FORBIDDEN"],
    [503, "PLB_SERVICE_UNAVAILABLE"],
    [504, "PLB_TARGET_TIMEOUT"],
    [404, "PLB_UPSTREAM_FAILED"],
    [410, "PLB_UPSTREAM_FAILED"],
    [500, "PLB_UPSTREAM_FAILED"],
    [502, "PLB_UPSTREAM_FAILED"],
  ])("answers a /status/%i target with %s", async (status, code) => {
    expect(await shoot({ url: `https://example.com/status/${status}` })).toMatchObject({ ok: false, code });
  });
});
