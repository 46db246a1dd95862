import { createServer } from "node:http";
import { createBrowserPool } from "/work/main/reference/engines/browser-pool.ts";
import { createHttpClient } from "/work/main/reference/engines/http-client.ts";
import { captureScreenshot } from "/work/main/reference/engines/screenshot-capture.ts";
import { encodeShot } from "/work/main/reference/engines/screenshot-encode.ts";
import { loadContract } from "/work/main/spec/index.ts";
import { pageOptions, screenshotDefaults, shotSettings } from "/work/main/reference/engines/screenshot-options.ts";
const PAGE = `<!doctype html><html><head><title>Bench</title><style>body{font:16px sans-serif;margin:40px}</style></head><body><h1>Plumbline</h1><p>x</p></body></html>`;
const site = createServer((_q, r) => r.writeHead(200, { "content-type": "text/html" }).end(PAGE));
await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(site.address() as any).port}/`;
const contract = await loadContract();
const pool = createBrowserPool({ spares: Number(process.env.SPARES ?? 2) });
const http = createHttpClient({ allowPrivateNetwork: true });
const defaults = screenshotDefaults(contract);
for (let i = 0; i < 12; i++) {
  const s = shotSettings({ url, viewport: { width: 1280, height: 800 } } as any, defaults);
  const t0 = performance.now(); let t1 = 0, t2 = 0;
  const shot = await pool.withPage(pageOptions(s), async (page, context) => {
    t1 = performance.now();
    const r = await captureScreenshot(page, context, s, { http, budgetBytes: 1e7, maxHeightPx: 16383, captureTimeoutMs: 15000 });
    t2 = performance.now();
    return r;
  });
  const t3 = performance.now();
  if (!shot.ok) throw new Error(shot.message);
  await encodeShot(shot.value.body, s, true);
  const t4 = performance.now();
  console.log(`acquire ${(t1 - t0).toFixed(0)} capture ${(t2 - t1).toFixed(0)} dispose ${(t3 - t2).toFixed(0)} encode ${(t4 - t3).toFixed(0)} total ${(t4 - t0).toFixed(0)}`);
  await new Promise((r) => setTimeout(r, 100));
}
await pool.close(); site.close();
