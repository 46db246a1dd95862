// Shared probe: one screenshot per format the contract lists, each with its own viewport (the first asks for
// nothing: the default format and viewport are judged too), of the fixture screenshot page on a target that fetches
// real pages and of the document's example URL otherwise. The image-format and pixel-size checks judge the same
// answers.

import type { Contract, JsonSchema } from "@plumbline-kit/contract";
import { type BoundCase, baseBody, boundCases } from "@plumbline-kit/contract/bounds";
import { SHOT_PAGE } from "../fixtures/site-facts.ts";
import type { OperationScope } from "../operation-scope.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";
import { fixturePageUrl } from "./target-urls.ts";

export interface Viewport {
  width: number;
  height: number;
  device_scale_factor: number;
}

export interface Shot {
  format: string;
  /** the viewport the image must have, defaults filled in */
  viewport: Viewport;
  body: Record<string, unknown>;
  exchange: Exchange;
  /** valid bound cases of screenshot this shot carries (the bound-cases probe judges them on its answer) */
  carries: BoundCase[];
}

/**
 * Fields whose valid values change neither the image format nor its size, so a shot may carry a bound case on them
 * (bound-packing.ts): the edge-accepted check then reads the same answer as the image checks, one /screenshot call
 * fewer against its tight window (D-rate-limits). The first shot stays the bare default request.
 */
const CARRIABLE = new Set(["/format", "/wait_until", "/color_scheme", "/animations"]);

// viewports other than the default, within the contract's bounds, whose pixel sizes are whole numbers
const VIEWPORTS: Viewport[] = [
  { width: 640, height: 400, device_scale_factor: 2 },
  { width: 800, height: 600, device_scale_factor: 1.5 },
];

const schemas = (c: Contract) => c.document.components?.schemas ?? {};

/** The image formats of the screenshot request, the default first (the probe's first shot leaves it out). */
export function screenshotFormats(c: Contract): string[] {
  const format = (schemas(c).ScreenshotRequest as JsonSchema).properties?.format as JsonSchema;
  const all = (format.enum ?? []).map(String);
  return [String(format.default), ...all.filter((f) => f !== String(format.default))];
}

/** The viewport a request without one gets (ScreenshotViewport's defaults). */
export function defaultViewport(c: Contract): Viewport {
  const p = (schemas(c).ScreenshotViewport as JsonSchema).properties ?? {};
  return {
    width: Number(p.width?.default),
    height: Number(p.height?.default),
    device_scale_factor: Number(p.device_scale_factor?.default),
  };
}

export const screenshotPrice = (c: Contract) =>
  c.prices.entryCredits("screenshot", baseBody(c.operation("screenshot")));

/** The shots' bodies (the document's example URL) and the valid bound cases each carries. */
export function plannedShots(c: Contract): Array<Omit<Shot, "exchange">> {
  const url = String(baseBody(c.operation("screenshot")).url);
  const shots = screenshotFormats(c).map((format, i) => {
    const viewport = i === 0 ? defaultViewport(c) : VIEWPORTS[(i - 1) % VIEWPORTS.length];
    const body: Record<string, unknown> = i === 0 ? { url } : { url, format, viewport };
    return { format, viewport, body, carries: [] as BoundCase[] };
  });
  for (const bc of boundCases(c)) {
    if (bc.operationId !== "screenshot" || !bc.valid || !CARRIABLE.has(bc.field)) continue;
    const name = bc.field.slice(1);
    const value = (bc.body as Record<string, unknown>)[name];
    const home = shots.slice(1).find((s) => s.body[name] === undefined || s.body[name] === value);
    if (!home) continue;
    home.body[name] = value;
    home.carries.push(bc);
  }
  return shots;
}

export const screenshotShotsProbe: Probe<Shot[]> = {
  id: "screenshot-shots",
  usesFixtureSite: true,
  cost: (c, _alt, scope: OperationScope) =>
    scope.has("screenshot") ? screenshotFormats(c).length * screenshotPrice(c) : 0,
  async run(ctx: RunContext) {
    const url = await fixturePageUrl(ctx, SHOT_PAGE.path, String(baseBody(ctx.contract.operation("screenshot")).url));
    const out: Shot[] = [];
    for (const planned of plannedShots(ctx.contract)) {
      const body = { ...planned.body, url };
      // the bare default request may have been sent already (the priced calls): its answer is judged again
      const same = ctx.http.exchanges.find(
        (e) =>
          e.operationId === "screenshot" &&
          e.response?.status === 200 &&
          e.raw !== undefined &&
          JSON.stringify(e.sent) === JSON.stringify(body),
      );
      const exchange = same ?? (await ctx.http.call("probe:screenshot-shots", "POST", "/screenshot", { body }));
      out.push({ ...planned, body, exchange });
    }
    return out;
  },
};
