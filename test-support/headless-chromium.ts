// Debian's Chromium for the browser tests of every part (browsers cannot be downloaded here): its path and the
// flags this machine needs. Test glue only: no product code imports it.
import { execFileSync } from "node:child_process";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_TEST_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** PLUMBLINE_CHROMIUM, else the `chromium` on PATH. */
export function chromiumPath(): string {
  if (process.env.PLUMBLINE_CHROMIUM) return process.env.PLUMBLINE_CHROMIUM;
  return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
}

/** A headless browser; Playwright gives every launch a fresh temporary profile. */
export function launchHeadlessChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_TEST_FLAGS });
}
