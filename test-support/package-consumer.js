// An application of the package, as a consumer writes it: plain Node, no loader flag, `import … from "plumbline"`,
// "plumbline/spec" and "plumbline/msw". Prints one JSON line of what it saw. Run by test-support/package-entry.test.ts
// (the checkout linked into an app, on the Node running the tests) and by .ci/package-smoke.sh (the packed tarball
// installed into an app, on the other supported Node).
import * as api from "plumbline";
import * as msw from "plumbline/msw";
import * as spec from "plumbline/spec";

const defined = (m) =>
  Object.keys(m)
    .filter((k) => m[k] !== undefined)
    .sort();
const mock = await api.startMock({ port: 0, keys: [{ key: "consumer-key", credits: 3 }] });
const usage = await (await fetch(`${mock.url}/usage`, { headers: { authorization: "Bearer consumer-key" } })).json();
await mock.close();
const contract = await spec.loadContract();
const handlers = await msw.createMockHandlers({ keys: [{ key: "consumer-key", credits: 3 }] });
await handlers.close();
// the reference parses pages in worker threads, which must load their TypeScript from plain Node too (issue 12)
const { createServer } = await import("node:http");
const site = createServer((_q, s) =>
  s
    .writeHead(200, { "content-type": "text/html" })
    .end("<html><body><h1>Consumer page</h1><p>Some words.</p></body></html>"),
);
await new Promise((r) => site.listen(0, "127.0.0.1", r));
const ref = await api.startReference({
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
    api: defined(api),
    spec: defined(spec),
    msw: defined(msw),
    handlers: handlers.handlers.length,
    usage,
    operations: contract.operations.length,
    crawled,
  }),
);
