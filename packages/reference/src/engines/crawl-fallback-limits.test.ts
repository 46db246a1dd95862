// The crawl's browser fallback under hostile pages (issue 12 "Browser fallback"): the bytes all of a render's
// requests read are bounded together (a page that fetches a 200 MB URL 200 times), and a page that takes the
// browser to a refused address fails the crawl as a refused target would (D-target-refusal: 400 on crawl), never
// with Chromium's error page as its content.
import type { ServerResponse } from "node:http";
import type { EngineContext } from "@plumbline-kit/platform/engines";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { forbiddenReason } from "./address-policy.ts";
import { createBrowserRenderer, type PageRenderer } from "./browser-renderer.ts";
import { createCrawlEngine } from "./crawl-engine.ts";
import { createHttpClient, type HttpClient } from "./http-client.ts";

const ctx: EngineContext = { requestId: "test", variability: "normal", seed: 1 };
const clock = { now: () => Date.parse("2026-11-26T12:00:00.000Z") };
const HUGE = 200 * 1024 * 1024;
const BUDGET = 16 * 1024 * 1024;

let served = 0;
let site: FixtureSite;
let internal: FixtureSite;
let http: HttpClient;
let renderer: PageRenderer;

/** 200 MB of text, written as the reader takes it (backpressure), counting what left this server. */
function huge(_req: unknown, res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  const pump = () => {
    while (sent < HUGE && !res.destroyed) {
      sent += chunk.length;
      served += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end();
  };
  res.on("close", () => {
    sent = HUGE;
  });
  pump();
}

const scripted = (script: string) =>
  `<!doctype html><html><head><title>Scripted</title></head><body><div id="app">Loading</div><script>${script}</script></body></html>`;

beforeAll(async () => {
  internal = await serveSite({ "/": { body: "<p>internal</p>" } }, "127.0.0.2");
  site = await serveSite({
    "/huge": huge,
    "/greedy.html": {
      body: scripted(`for (let i = 0; i < 200; i++) fetch("/huge?" + i).then((r) => r.text()).catch(() => {});
        document.getElementById("app").textContent = "Greedy page";`),
    },
    "/leaves.html": {
      body: scripted(`location.href = "${internal.url}/";`),
    },
  });
  http = createHttpClient({ addressPolicy: (ip) => (ip === "127.0.0.1" ? null : forbiddenReason(ip)) });
  renderer = createBrowserRenderer({ http, budgetBytes: BUDGET, settleMs: 3_000 });
});
afterAll(async () => {
  await renderer?.close();
  await http?.close();
  await Promise.all([site?.close(), internal?.close()]);
});

describe("crawl: the browser fallback's limits", () => {
  it("bounds the bytes all of a render's requests read together", async () => {
    const r = await createCrawlEngine({ http, renderer, clock })({ url: `${site.url}/greedy.html` }, ctx);
    expect(r.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const hits = site.hits.filter((p) => p === "/huge").length;
    console.log(`greedy page: ${hits} fetches of /huge began, ${(served / 2 ** 20).toFixed(1)} MiB left the server`);
    // without the budget: 200 × the 5 MiB per-fetch cap = 1000 MiB. The server also counts what the kernel's
    // socket buffers took in for the few connections open at once, never read by the reference
    expect(served).toBeLessThan(BUDGET + 6 * 8 * 1024 * 1024);
  });

  it("fails the crawl, uncharged, when the page navigates to a refused address", async () => {
    const r = await createCrawlEngine({ http, renderer, clock })({ url: `${site.url}/leaves.html` }, ctx);
    expect(r).toMatchObject({ ok: false, code: "PLB_BAD_VALUE", message: expect.stringMatching(/loopback/) });
    expect(internal.hits).toEqual([]);
  });
});
