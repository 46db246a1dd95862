// One screenshot in a fresh context of the shared browser (interface-spec "POST /screenshot"): navigate through the
// guarded http client, wait until the page is ready (wait_until, then wait_for_selector, then the `selector`
// element), all within timeout_ms, wait delay_ms, capture. Failures are values, in the operation's own statuses:
//   a refused target, first hop or any redirect      PLB_TARGET_FORBIDDEN (403, D-target-refusal)
//   not ready within timeout_ms, a selector that never appears   PLB_TARGET_TIMEOUT (504, D-screenshot-readiness)
//   unreachable, answered >= 400, crashed, navigated away        PLB_UPSTREAM_FAILED (502)
//   a selector that is not CSS                                   PLB_BAD_VALUE (400)

import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { createByteBudget } from "./byte-budget.ts";
import type { HttpClient } from "./http-client.ts";
import { isBrowserTimeout, leftThePage, navigate } from "./navigate-page.ts";
import { routeThroughClient } from "./route-through-client.ts";
import type { ShotSettings } from "./screenshot-options.ts";

export interface CaptureSettings {
  http: HttpClient;
  /** bytes all the page's requests may read together */
  budgetBytes: number;
  /** the tallest image, in device pixels (full_page and tall elements are cut there; WebP's own limit is 16 383) */
  maxHeightPx: number;
  /** the capture itself, after the page is ready */
  captureTimeoutMs: number;
}

export interface Captured {
  /** png, or jpeg when jpeg was asked */
  body: Buffer;
  /** the element or page was cut at maxHeightPx */
  cut: boolean;
}

type Result<T> = EngineResult<T>;
type Clip = { x: number; y: number; width: number; height: number };

const MEDIA_ONLY: ReadonlySet<string> = new Set(["media"]);
const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n")[0];
const upstream = (message: string) => ({ ok: false, code: "PLB_UPSTREAM_FAILED", message }) as const;
const timeout = (message: string) => ({ ok: false, code: "PLB_TARGET_TIMEOUT", message }) as const;

/** Whether `selector` parses as CSS, asked of the page's own engine. */
async function isCss(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    try {
      document.createDocumentFragment().querySelector(s);
      return true;
    } catch {
      return false;
    }
  }, selector);
}

/** Waits for `selector` to be `state` until the deadline. */
async function waitFor(
  page: Page,
  selector: string,
  state: "attached" | "visible",
  s: ShotSettings,
  deadline: number,
): Promise<Result<Locator>> {
  if (!(await isCss(page, selector)))
    return { ok: false, code: "PLB_BAD_VALUE", message: `"${selector.slice(0, 100)}" is not a CSS selector` };
  const locator = page.locator(`css=${selector}`).first();
  try {
    await locator.waitFor({ state, timeout: Math.max(1, deadline - Date.now()) });
    return { ok: true, value: locator };
  } catch (err) {
    if (isBrowserTimeout(err))
      return timeout(
        `No ${state === "visible" ? "visible " : ""}element matched "${selector.slice(0, 100)}" within ${s.timeoutMs} ms`,
      );
    throw err;
  }
}

/** The clip of the whole document (at the viewport's width) or of the element, in CSS px, cut at the cap. */
async function clipOf(page: Page, element: Locator | null, s: ShotSettings, c: CaptureSettings) {
  const maxCss = Math.floor(c.maxHeightPx / s.scale);
  const box: Clip = element
    ? await element.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
      })
    : {
        x: 0,
        y: 0,
        width: s.width,
        height: await page.evaluate(() =>
          Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
        ),
      };
  const height = element ? box.height : Math.max(s.height, box.height);
  return { clip: { ...box, height: Math.min(height, maxCss) }, cut: height > maxCss };
}

export async function captureScreenshot(
  page: Page,
  context: BrowserContext,
  s: ShotSettings,
  c: CaptureSettings,
  signal?: AbortSignal,
): Promise<Result<Captured>> {
  // file:, data:, chrome: … would be loaded by Chromium itself, past the guard (the platform answers such a URL
  // 400 before the engine runs, target-url.ts; this is for a caller of the engine itself)
  if (!/^https?:/i.test(s.url)) return upstream(`The target ${s.url.slice(0, 200)} is not an http(s) URL`);
  const done = new AbortController();
  const onAbort = () => {
    done.abort();
    void context.close().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const budget = createByteBudget(c.budgetBytes);
    const nav = await routeThroughClient(context, c.http, { signal: done.signal, budget, skip: MEDIA_ONLY });
    const deadline = Date.now() + s.timeoutMs;
    const loaded = await navigate(page, nav, s.url, s.waitUntil, deadline);
    if (!loaded.ok) return loaded;
    if (loaded.value >= 400) return upstream(`The page ${s.url} answered ${loaded.value}`);
    if (s.waitForSelector) {
      const found = await waitFor(page, s.waitForSelector, "attached", s, deadline);
      if (!found.ok) return found;
    }
    let element: Locator | null = null;
    if (s.selector) {
      const found = await waitFor(page, s.selector, "visible", s, deadline);
      if (!found.ok) return found;
      element = found.value;
    }
    if (s.delayMs > 0) await page.waitForTimeout(s.delayMs);
    const left = leftThePage(page, nav);
    if (left) return left;
    const options = {
      type: s.format === "jpeg" ? ("jpeg" as const) : ("png" as const),
      ...(s.format === "jpeg" && s.quality !== null ? { quality: s.quality } : {}),
      omitBackground: s.omitBackground,
      animations: s.animations,
      caret: "hide" as const,
      timeout: c.captureTimeoutMs,
    };
    if (!element && !s.fullPage) return { ok: true, value: { body: await page.screenshot(options), cut: false } };
    if (element) await element.scrollIntoViewIfNeeded({ timeout: c.captureTimeoutMs });
    const { clip, cut } = await clipOf(page, element, s, c);
    return { ok: true, value: { body: await page.screenshot({ ...options, fullPage: true, clip }), cut } };
  } catch (err) {
    if (isBrowserTimeout(err)) return timeout(`The screenshot of ${s.url} took too long: ${firstLine(err)}`);
    return upstream(`The page ${s.url} could not be captured: ${firstLine(err)}`);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    done.abort();
  }
}
