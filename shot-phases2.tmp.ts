import { createServer } from "node:http";
import { createBrowserPool } from "/work/main/reference/engines/browser-pool.ts";
import { createHttpClient } from "/work/main/reference/engines/http-client.ts";
import { routeThroughClient } from "/work/main/reference/engines/route-through-client.ts";
const PAGE = `<!doctype html><html><head><title>Bench</title><style>body{font:16px sans-serif;margin:40px}</style></head><body><h1>Plumbline</h1><p>x</p></body></html>`;
const site = createServer((_q, r) => r.writeHead(200, { "content-type": "text/html" }).end(PAGE));
await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(site.address() as any).port}/`;
const pool = createBrowserPool({ spares: 2 });
const http = createHttpClient({ allowPrivateNetwork: true });
for (let i = 0; i < 10; i++) {
  await pool.withPage({ viewport: { width: 1280, height: 800 } }, async (page, context) => {
    const t = [performance.now()];
    await routeThroughClient(context, http, { skip: new Set(["media"]) }); t.push(performance.now());
    await page.goto(url, { waitUntil: "load" }); t.push(performance.now());
    await page.screenshot({ type: "png", caret: "hide", animations: "allow" }); t.push(performance.now());
    await page.screenshot({ type: "png" }); t.push(performance.now());
    console.log("route/goto/shot(caret hide)/shot(plain)", t.slice(1).map((x, i) => (x - t[i]).toFixed(0)).join(" / "));
    return { ok: true, value: 1 } as any;
  });
  await new Promise((r) => setTimeout(r, 100));
}
await pool.close(); site.close();
