import { createServer } from "node:http";
import { createBrowserPool } from "/work/main/reference/engines/browser-pool.ts";
import { createHttpClient } from "/work/main/reference/engines/http-client.ts";
import { routeThroughClient } from "/work/main/reference/engines/route-through-client.ts";
const PAGE = `<!doctype html><html><head><title>Bench</title><style>body{font:16px sans-serif;margin:40px}
  .card{background:#1f6feb;color:#fff;padding:24px;border-radius:8px}</style></head>
  <body><h1>Plumbline</h1><div class="card">A simple page to shoot.</div><p>Some text below the card.</p></body></html>`;
const site = createServer((_q, r) => r.writeHead(200, { "content-type": "text/html" }).end(PAGE));
await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(site.address() as any).port}/`;
const pool = createBrowserPool({ spares: 2 });
const http = createHttpClient({ allowPrivateNetwork: true });
for (let i = 0; i < 14; i++) {
  const t0 = performance.now(); let t = [0];
  await pool.withPage({ viewport: { width: 1280, height: 800 } }, async (page, context) => {
    t = [performance.now()];
    await routeThroughClient(context, http, { skip: new Set(["media"]) }); t.push(performance.now());
    const resp = await page.goto(url, { waitUntil: "load" }); t.push(performance.now());
    await page.screenshot({ type: "png", caret: "hide", animations: "allow", timeout: 15000 }); t.push(performance.now());
    return { ok: true, value: 1 } as any;
  });
  const t9 = performance.now();
  console.log(`acquire ${(t[0] - t0).toFixed(0)} route ${(t[1]-t[0]).toFixed(0)} goto ${(t[2]-t[1]).toFixed(0)} shot ${(t[3]-t[2]).toFixed(0)} dispose ${(t9-t[3]).toFixed(0)} total ${(t9-t0).toFixed(0)}`);
  await new Promise((r) => setTimeout(r, 100));
}
await pool.close(); site.close();
