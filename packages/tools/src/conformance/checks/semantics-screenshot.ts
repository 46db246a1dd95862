// Screenshot semantics (interface-spec "POST /screenshot": the requested format's image, viewport with
// device_scale_factor, full_page captures the whole document, selector captures only that element, color_scheme,
// omit_background). The format and pixel-size checks hold for any target, a synthetic one included: the request
// alone fixes them. The others need the fixture page (fixtures/site-facts.ts) really rendered (canary probe).
import { answerFailures } from "../answer-judge.ts";
import { describe, failure, ok, status } from "../check-helpers.ts";
import { SHOT_PAGE } from "../fixtures/site-facts.ts";
import { decodeImage, imageDecoder, NO_DECODER, type Pixel, pixelAt, readImageHeader } from "../image-reading.ts";
import { type Shot, screenshotPrice, screenshotShotsProbe, type Viewport } from "../probes/screenshot-shots.ts";
import type { CheckDefinition, Failure, RunContext } from "../types.ts";
import { fixture } from "./semantics-crawl.ts";

const SECTION = "POST /screenshot";
const size = (v: Viewport) => ({
  width: Math.round(v.width * v.device_scale_factor),
  height: Math.round(v.height * v.device_scale_factor),
});
const label = (s: Shot) => `${s.format} ${s.viewport.width}×${s.viewport.height}@${s.viewport.device_scale_factor}`;

const imageFormat: CheckDefinition = {
  id: "screenshot-image-format",
  title: "A screenshot is the requested format: its content type, and bytes that decode as that format",
  severity: "critical",
  section: SECTION,
  basis: { kind: "contract" },
  operations: ["screenshot"],
  probes: [screenshotShotsProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    const notes: string[] = [];
    for (const s of await ctx.probe(screenshotShotsProbe)) {
      const ex = s.exchange;
      if (status(ex) !== 200) {
        failures.push(failure(`screenshot ${label(s)} failed`, [ex], "200", describe(ex)));
        continue;
      }
      // the content type, the header and the image's end: the registry's rule (the proxy applies it to live shots)
      const found = answerFailures(
        ctx,
        ["screenshot-image"],
        (e) => e === ex,
        () => `screenshot ${label(s)}: `,
      );
      failures.push(...found);
      if (found.length > 0) continue;
      const bytes = ex.raw ?? Buffer.alloc(0);
      const header = readImageHeader(bytes);
      if (!header) continue; // the rule names it
      const decoded = await decodeImage(bytes);
      if (!decoded.ok && decoded.noDecoder) notes.push(`${label(s)}: header only (${NO_DECODER})`);
      else if (!decoded.ok)
        failures.push(
          failure(`screenshot ${label(s)}: the image does not decode`, [ex], `a whole ${s.format}`, decoded.error),
        );
      else if (decoded.width !== header.width || decoded.height !== header.height)
        failures.push(
          failure(
            `screenshot ${label(s)}: decoded size differs from the header's`,
            [ex],
            `${header.width}×${header.height}`,
            `${decoded.width}×${decoded.height}`,
          ),
        );
    }
    return { failures, notes };
  },
};

const pixelSize: CheckDefinition = {
  id: "screenshot-pixel-size",
  title: "A screenshot measures viewport × device_scale_factor pixels (the documented defaults when omitted)",
  severity: "major",
  section: SECTION,
  basis: { kind: "contract" },
  operations: ["screenshot"],
  probes: [screenshotShotsProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    const notes: string[] = [];
    for (const s of await ctx.probe(screenshotShotsProbe)) {
      if (status(s.exchange) !== 200) continue; // reported by screenshot-image-format
      const header = readImageHeader(s.exchange.raw ?? Buffer.alloc(0));
      if (!header) continue; // idem
      notes.push(`${label(s)}: ${header.width}×${header.height}`);
      // viewport × device_scale_factor, the documented defaults when omitted: the registry's rule
      failures.push(
        ...answerFailures(
          ctx,
          ["screenshot-pixel-size"],
          (e) => e === s.exchange,
          () => `screenshot ${label(s)}: `,
        ),
      );
    }
    return { failures, notes };
  },
};

/** One screenshot of the fixture screenshot page, with its header read (null when it is no image). */
async function shoot(ctx: RunContext, by: string, extra: Record<string, unknown>) {
  const ex = await ctx.http.call(by, "POST", "/screenshot", { body: { url: fixture(ctx, SHOT_PAGE.path), ...extra } });
  return { ex, header: status(ex) === 200 ? readImageHeader(ex.raw ?? Buffer.alloc(0)) : null };
}

const FULL_VIEWPORT: Viewport = { width: 800, height: 600, device_scale_factor: 1 };

const fullPage: CheckDefinition = {
  id: "screenshot-full-page",
  title: "full_page: true on a page taller than the viewport captures the whole document: a taller image",
  severity: "major",
  section: `${SECTION} (full_page)`,
  basis: { kind: "contract" },
  operations: ["screenshot"],
  preconditions: ["fetches-real-pages"],
  cost: (c) => screenshotPrice(c),
  async run(ctx) {
    const { ex, header } = await shoot(ctx, this.id, { full_page: true, viewport: FULL_VIEWPORT });
    if (!header)
      return { failures: [failure("the full-page screenshot is no image", [ex], "200 with an image", describe(ex))] };
    const viewport = size(FULL_VIEWPORT);
    const page = SHOT_PAGE.height * FULL_VIEWPORT.device_scale_factor;
    const failures: Failure[] = [];
    if (header.width !== viewport.width)
      failures.push(
        failure("the full-page image is not the viewport's width", [ex], `${viewport.width}`, `${header.width}`),
      );
    if (header.height <= viewport.height)
      failures.push(
        failure(
          "full_page gave no taller image than the viewport",
          [ex],
          `> ${viewport.height} (the page is ${page} tall)`,
          `${header.height}`,
        ),
      );
    else if (header.height < page - 2)
      failures.push(failure("full_page did not capture the whole document", [ex], `≥ ${page}`, `${header.height}`));
    return failures.length ? { failures } : ok([`${header.width}×${header.height}`]);
  },
};

const SELECTOR_VIEWPORT: Viewport = { width: 800, height: 600, device_scale_factor: 2 };

const selectorCrop: CheckDefinition = {
  id: "screenshot-selector-crop",
  title: "selector captures only that element: its CSS box × device_scale_factor, smaller than the viewport",
  severity: "major",
  section: `${SECTION} (selector)`,
  basis: { kind: "contract" },
  operations: ["screenshot"],
  preconditions: ["fetches-real-pages"],
  cost: (c) => screenshotPrice(c),
  async run(ctx) {
    const { ex, header } = await shoot(ctx, this.id, { selector: SHOT_PAGE.selector, viewport: SELECTOR_VIEWPORT });
    if (!header)
      return { failures: [failure("the element screenshot is no image", [ex], "200 with an image", describe(ex))] };
    const scale = SELECTOR_VIEWPORT.device_scale_factor;
    const want = { width: SHOT_PAGE.box.width * scale, height: SHOT_PAGE.box.height * scale };
    // a renderer may round the box to whole device pixels
    const near = (a: number, b: number) => Math.abs(a - b) <= 1;
    if (near(header.width, want.width) && near(header.height, want.height))
      return ok([`${header.width}×${header.height}`]);
    const viewport = size(SELECTOR_VIEWPORT);
    const whole = header.width >= viewport.width && header.height >= viewport.height;
    return {
      failures: [
        failure(
          whole
            ? "selector was ignored: the image is the whole viewport"
            : "the element image is not the element's box",
          [ex],
          `${want.width}×${want.height} (${SHOT_PAGE.selector}: ${SHOT_PAGE.box.width}×${SHOT_PAGE.box.height} × ${scale})`,
          `${header.width}×${header.height}`,
        ),
      ],
    };
  },
};

const near = (p: Pixel, c: { r: number; g: number; b: number }) =>
  Math.abs(p.r - c.r) <= 24 && Math.abs(p.g - c.g) <= 24 && Math.abs(p.b - c.b) <= 24;
const hex = (p: { r: number; g: number; b: number }) =>
  `#${[p.r, p.g, p.b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;

const colorScheme: CheckDefinition = {
  id: "screenshot-color-scheme",
  title: "color_scheme: dark renders the page with prefers-color-scheme: dark",
  severity: "minor",
  section: `${SECTION} (color_scheme)`,
  basis: { kind: "contract" },
  operations: ["screenshot"],
  preconditions: ["fetches-real-pages"],
  cost: (c) => screenshotPrice(c),
  async run(ctx) {
    if (!(await imageDecoder())) return { failures: [], skip: NO_DECODER, skipKind: "image-decoder" };
    const { ex, header } = await shoot(ctx, this.id, { color_scheme: "dark", viewport: FULL_VIEWPORT });
    if (!header)
      return { failures: [failure("the dark screenshot is no image", [ex], "200 with an image", describe(ex))] };
    // the bottom right corner of the box, away from its text (a viewport shot: selector is another check's)
    const { left, top, width, height } = SHOT_PAGE.box;
    const p = await pixelAt(ex.raw ?? Buffer.alloc(0), left + width - 8, top + height - 8);
    const { dark, light } = SHOT_PAGE.boxColor;
    if (p && near(p, dark)) return ok([`box corner ${hex(p)}`]);
    const why = p && near(p, light) ? "the box has its light-scheme colour" : "the box is not in its dark colour";
    return { failures: [failure(why, [ex], `≈ ${hex(dark)} (light: ${hex(light)})`, p ? hex(p) : "no pixel")] };
  },
};

const omitBackground: CheckDefinition = {
  id: "screenshot-omit-background",
  title: "omit_background: true leaves the page's unpainted background transparent in a png",
  severity: "minor",
  section: `${SECTION} (omit_background)`,
  basis: { kind: "contract" },
  operations: ["screenshot"],
  preconditions: ["fetches-real-pages"],
  cost: (c) => screenshotPrice(c),
  async run(ctx) {
    if (!(await imageDecoder())) return { failures: [], skip: NO_DECODER, skipKind: "image-decoder" };
    const { width, height } = FULL_VIEWPORT;
    const { ex, header } = await shoot(ctx, this.id, {
      format: "png",
      omit_background: true,
      viewport: { width, height },
    });
    if (!header) return { failures: [failure("the screenshot is no image", [ex], "200 with an image", describe(ex))] };
    // the bottom right corner: no element of the fixture page paints there
    const p = await pixelAt(ex.raw ?? Buffer.alloc(0), header.width - 4, header.height - 4);
    if (p && p.a <= 16) return ok();
    return {
      failures: [
        failure("the background is not transparent", [ex], "alpha ≈ 0", p ? `${hex(p)} alpha ${p.a}` : "no pixel"),
      ],
    };
  },
};

export const SCREENSHOT_SEMANTIC_CHECKS = [imageFormat, pixelSize, fullPage, selectorCrop, colorScheme, omitBackground];
