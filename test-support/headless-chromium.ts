// The browser tests' headless Chromium: $PLUMBLINE_CHROMIUM (e.g. Debian's /usr/bin/chromium), else the embedded
// build the @sparticuz/chromium dependency ships (spec/chromium.ts), as the reference and the conformance suite
// launch it. Test glue only: no product code imports it.
import { type Browser, chromium } from "playwright-core";
import { resolveChromium } from "../packages/contract/src/chromium.ts";

export const CHROMIUM_TEST_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A headless browser; Playwright gives every launch a fresh temporary profile. */
export async function launchHeadlessChromium(): Promise<Browser> {
  const { executablePath, env } = await resolveChromium();
  return chromium.launch({ executablePath, env, args: CHROMIUM_TEST_FLAGS });
}
