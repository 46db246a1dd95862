// Upstream stand-ins for the reference's tests: the trending platforms (GitHub's trending page, the Hacker News API)
// answering their recorded responses on 127.0.0.1, so a reference started with `--github-trending-url` and
// `--hackernews-trending-url` pointing here serves /trending offline. Test glue.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const recorded = (name: string) =>
  readFileSync(new URL(`../reference/test/fixtures/trending/${name}`, import.meta.url));

export interface UpstreamStandIns {
  url: string;
  /** the reference's flags that point it here */
  args: string[];
  close(): Promise<void>;
}

export async function startUpstreamStandIns(): Promise<UpstreamStandIns> {
  const items = JSON.parse(recorded("hn-items.json").toString()) as Record<string, unknown>;
  const routes = new Map<string, { type: string; body: Buffer | string }>([
    ["/trending", { type: "text/html; charset=utf-8", body: recorded("github-trending.html") }],
    ["/v0/topstories.json", { type: "application/json", body: recorded("hn-topstories.json") }],
  ]);
  for (const [id, item] of Object.entries(items)) {
    routes.set(`/v0/item/${id}.json`, { type: "application/json", body: JSON.stringify(item) });
  }
  const server = createServer((req, res) => {
    const route = routes.get(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(route ? 200 : 404, { "content-type": route?.type ?? "text/plain" });
    res.end(route?.body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    args: ["--github-trending-url", url, "--hackernews-trending-url", url],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
