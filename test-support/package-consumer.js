// An application of the packages, as a user writes it: plain Node, no loader flag, the built JavaScript of
// `@plumbline-kit/contract`, `…/mock`, `…/mock/msw`, `…/tools` and `…/reference`. Prints one JSON line of what it
// saw. Run by test-support/package-entry.test.ts against the repository's built packages (npm run build); the
// packed tarballs, each installed alone, are tools/package-smoke.js's.
import * as contract from "@plumbline-kit/contract";
import * as mockPkg from "@plumbline-kit/mock";
import * as msw from "@plumbline-kit/mock/msw";
import * as reference from "@plumbline-kit/reference";
import * as tools from "@plumbline-kit/tools";

const defined = (m) =>
  Object.keys(m)
    .filter((k) => m[k] !== undefined)
    .sort();
const mock = await mockPkg.startMock({ port: 0, keys: [{ key: "consumer-key", credits: 3 }] });
const usage = await (await fetch(`${mock.url}/usage`, { headers: { authorization: "Bearer consumer-key" } })).json();
await mock.close();
const loaded = await contract.loadContract();
const handlers = await msw.createMockHandlers({ keys: [{ key: "consumer-key", credits: 3 }] });
await handlers.close();
// the reference parses pages in worker threads, which run the built JavaScript too (issue 12)
const { createServer } = await import("node:http");
const site = createServer((_q, s) =>
  s
    .writeHead(200, { "content-type": "text/html" })
    .end("<html><body><h1>Consumer page</h1><p>Some words.</p></body></html>"),
);
await new Promise((r) => site.listen(0, "127.0.0.1", r));
const ref = await reference.startReference({
  port: 0,
  dataDir: "ref-data",
  keys: [{ key: "consumer-key", credits: 3 }],
  allowPrivateNetwork: true,
});
const crawl = await fetch(`${ref.url}/crawl`, {
  method: "POST",
  headers: { authorization: "Bearer consumer-key", "content-type": "application/json" },
  body: JSON.stringify({ url: `http://127.0.0.1:${site.address().port}/page`, enableFallback: false }),
});
const crawled = { status: crawl.status, content: (await crawl.json()).results?.content };
await ref.close();
site.close();
console.log(
  JSON.stringify({
    contract: defined(contract),
    mock: defined(mockPkg),
    msw: defined(msw),
    tools: defined(tools),
    reference: defined(reference),
    handlers: handlers.handlers.length,
    usage,
    operations: loaded.operations.length,
    crawled,
  }),
);
