// The shared browser opens no connection of its own (issue 12 "Browser fallback": Chromium started with flags that
// stop its background connections). Chromium is pointed at a proxy that counts connections. Debian's wrapper gives
// Chromium Google API keys, and even with the background-networking flags it then tries Google's hosts at start
// (network time, accounts, GCM: seen here through this proxy); the host-resolver rule of CHROMIUM_ARGS is what
// stops them, since it maps every host, IP literals included, to nothing. So: with the reference's flags nothing
// reaches the proxy, not even a page nobody routes; with the proxy let through, that page does, so the count can
// tell.
import { createServer, type Server } from "node:net";
import { loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { type BrowserPool, createBrowserPool } from "./browser-pool.ts";
import { createHttpClient } from "./http-client.ts";
import { createScreenshotEngine } from "./screenshot-engine.ts";

let proxy: Server;
let connections = 0;
let site: FixtureSite;
const port = () => (proxy.address() as { port: number }).port;

beforeAll(async () => {
  proxy = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  site = await serveSite({ "/": { body: "<h1>Quiet</h1>" } });
});
afterAll(async () => {
  await site?.close();
  await new Promise((r) => proxy?.close(r));
});

/** A page of the pool whose routes are taken off, sent to a host name: only Chromium's own network stack can fetch
 * it (with the routes on, the pool answers it blocked and it never reaches the network stack; Debian's build
 * made the control count its own start-up connections, the embedded build makes none). */
const unrouted = (pool: BrowserPool) =>
  pool.withPage({}, async (page, context) => {
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await page.goto("http://plumbline-control.example/", { timeout: 5_000 }).catch(() => null);
    return { ok: true, value: null };
  });

it("lets no connection of Chromium's own leave while it starts, renders and idles", async () => {
  const pool = createBrowserPool({ args: [`--proxy-server=http://127.0.0.1:${port()}`] });
  const http = createHttpClient({ allowPrivateNetwork: true });
  try {
    const shoot = createScreenshotEngine({ contract: await loadContract(), pool, http });
    const ctx = { requestId: "t", variability: "normal" as const, seed: 0 };
    expect(await shoot({ url: `${site.url}/` }, ctx)).toMatchObject({ ok: true });
    await unrouted(pool);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(connections).toBe(0);
  } finally {
    await pool.close();
    await http.close();
  }
}, 60_000);

it("(the control) counts what Chromium sends once the proxy is let through the host-resolver rule", async () => {
  const before = connections;
  const pool = createBrowserPool({
    args: [`--proxy-server=http://127.0.0.1:${port()}`, "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  try {
    await unrouted(pool);
    expect(connections).toBeGreaterThan(before);
  } finally {
    await pool.close();
  }
}, 60_000);
