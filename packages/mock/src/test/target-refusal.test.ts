// D-target-refusal on the mock: hosts the URL-safety guard refuses, judged as written (no DNS), answer 403 on
// screenshot and 400 PLB_BAD_VALUE on crawl, sitemap, extract and deepcrawl, uncharged; `allowPrivateNetwork`
// opens loopback and private hosts but never cloud metadata.
import { describe, expect, it } from "vitest";
import { startMock } from "../start-mock.ts";
import { useMock } from "./harness.ts";

const h = useMock();

const REFUSED = [
  "http://169.254.169.254/latest/meta-data/",
  "http://127.0.0.1:8080/",
  "http://localhost/admin",
  "http://app.localhost/",
  "http://[::1]/",
  "http://10.0.0.1/",
  "http://2852039166/",
  "http://metadata.google.internal/computeMetadata/v1/",
  // every spelling the shared policy reads (issue 38)
  "http://[::127.0.0.1]/",
  "http://[::ffff:0:127.0.0.1]/",
  "http://[64:ff9b::a00:1]/",
  "http://[2002:c0a8:101::]/",
  "http://[fec0::1]/",
  "http://0177.0.0.1/",
  "http://0x7f.1/",
];

describe("refused targets (D-target-refusal)", () => {
  it.each(REFUSED)(
    "crawl, sitemap, extract and deepcrawl answer 400 for %s, screenshot 403, nothing charged",
    async (url) => {
      const before = await h.balance();
      for (const path of ["/crawl", "/sitemap", "/extract", "/deepcrawl"]) {
        const r = await h.post(path, { url });
        expect(r.status, path).toBe(400);
        expect(r.body).toMatchObject({
          ok: false,
          code: "PLB_BAD_VALUE",
          message: expect.stringMatching(/public addresses only/),
        });
      }
      const shot = await h.post("/screenshot", { url });
      expect(shot.status).toBe(403);
      expect(shot.body).toMatchObject({ code: "PLB_TARGET_FORBIDDEN" });
      expect(await h.balance()).toBe(before);
    },
  );

  it("serves public hosts as before", async () => {
    expect((await h.post("/crawl", { url: "https://example.com/" })).status).toBe(200);
    expect((await h.post("/screenshot", { url: "https://93.184.216.34/" })).status).toBe(200);
  });

  it("serves loopback and private hosts with allowPrivateNetwork, never cloud metadata", async () => {
    const open = await startMock({
      port: 0,
      contract: h.contract,
      keys: [{ key: "k", credits: 100 }],
      allowPrivateNetwork: true,
    });
    try {
      const post = (path: string, url: string) =>
        fetch(`${open.url}${path}`, {
          method: "POST",
          headers: { authorization: "Bearer k", "content-type": "application/json" },
          body: JSON.stringify({ url }),
        }).then((r) => r.status);
      expect(await post("/crawl", "http://127.0.0.1:4020/article.html")).toBe(200);
      expect(await post("/crawl", "http://localhost/")).toBe(200);
      expect(await post("/crawl", "http://169.254.169.254/latest/meta-data/")).toBe(400);
      expect(await post("/screenshot", "http://metadata.google.internal/")).toBe(403);
    } finally {
      await open.close();
    }
  });
});
