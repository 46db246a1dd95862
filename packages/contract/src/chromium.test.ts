// The embedded Chromium (spec/chromium.ts): a given path is taken as it is; without one, the headless shell of
// @sparticuz/chromium is unpacked and launches through playwright-core; processes that unpack it at once into the
// same temporary folder all get a whole browser.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { resolveChromium } from "./chromium.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "plumbline-chromium-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the Chromium to launch", () => {
  it("is the path given, else PLUMBLINE_CHROMIUM, as it is", async () => {
    expect(await resolveChromium("/opt/some/chromium")).toEqual({
      executablePath: "/opt/some/chromium",
      source: "given",
    });
    const before = process.env.PLUMBLINE_CHROMIUM;
    process.env.PLUMBLINE_CHROMIUM = "/usr/bin/chromium";
    try {
      expect(await resolveChromium()).toMatchObject({ executablePath: "/usr/bin/chromium", source: "given" });
    } finally {
      if (before === undefined) delete process.env.PLUMBLINE_CHROMIUM;
      else process.env.PLUMBLINE_CHROMIUM = before;
    }
  });

  it("is otherwise the embedded headless shell, which launches and renders a page", async () => {
    const before = process.env.PLUMBLINE_CHROMIUM;
    delete process.env.PLUMBLINE_CHROMIUM;
    try {
      const found = await resolveChromium();
      expect(found.source).toBe("embedded");
      expect(found.executablePath.startsWith(tmpdir())).toBe(true);
      const browser = await chromium.launch({ executablePath: found.executablePath, env: found.env });
      try {
        expect(browser.version()).toMatch(/^143\./);
        const page = await browser.newPage();
        await page.setContent("<p id=p></p><script>document.getElementById('p').textContent = 'written'</script>");
        expect(await page.textContent("#p")).toBe("written");
      } finally {
        await browser.close();
      }
    } finally {
      if (before !== undefined) process.env.PLUMBLINE_CHROMIUM = before;
    }
  });

  it("is unpacked whole when three processes unpack it at once into the same folder", async () => {
    const script = `import("${new URL("./chromium.ts", import.meta.url).href}").then(async ({ resolveChromium }) => {
      const r = await resolveChromium();
      console.log(r.executablePath);
    })`;
    const env = { ...process.env, TMPDIR: scratch, PLUMBLINE_CHROMIUM: "" };
    const outs = await Promise.all(
      [1, 2, 3].map(() => run(process.execPath, ["--import", "tsx", "-e", script], { env, cwd: process.cwd() })),
    );
    const paths = new Set(outs.map((o) => o.stdout.trim()));
    expect(paths.size).toBe(1);
    const [path] = paths;
    expect(path.startsWith(scratch)).toBe(true);
    const { stdout } = await run(path, ["--version"], {
      env: { ...process.env, LD_LIBRARY_PATH: join(path, "..", "lib") },
    });
    expect(stdout).toMatch(/Chromium 143\./);
    expect(statSync(path).mode & 0o111).not.toBe(0);
  }, 120_000);
});
