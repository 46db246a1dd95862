// The crawl engine's decisions with its parts replaced (no network, no browser): when the fallback runs, which text
// wins, how client failures read.

import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { describe, expect, it, vi } from "vitest";
import { createBrowserRenderer, type PageRenderer, type RenderedPage } from "./browser-renderer.ts";
import { createCrawlEngine } from "./crawl-engine.ts";
import type { FetchedResponse, HttpClient } from "./http-client.ts";

const ctx: EngineContext = { requestId: "t", variability: "normal", seed: 1, signal: new AbortController().signal };
const clock = { now: () => 0 };
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const html = (body: string) => `<html><head><title>Page</title></head><body><main><p>${body}</p></main></body></html>`;
/** a page whose text a script would write (the fallback's case) */
const app = (body: string) => html(body).replace("</head>", '<script src="/app.js" defer></script></head>');

function fakeHttp(answer: EngineResult<FetchedResponse> | { body: string; type?: string }): HttpClient {
  const value: EngineResult<FetchedResponse> =
    "ok" in answer
      ? answer
      : {
          ok: true,
          value: {
            url: "https://example.org/final",
            status: 200,
            headers: answer.type === undefined ? {} : { "content-type": answer.type },
            body: Buffer.from(answer.body),
            redirects: [],
          },
        };
  return { fetch: vi.fn(async () => value), close: async () => {} };
}

function fakeRenderer(result: EngineResult<RenderedPage>): PageRenderer & { render: ReturnType<typeof vi.fn> } {
  return { render: vi.fn(async () => result), close: async () => {} };
}

const rendered = (body: string) => ({
  ok: true as const,
  value: { url: "https://example.org/rendered", status: 200, html: html(body) },
});

describe("crawl engine, parts replaced", () => {
  it("renders a page with little static text, at its final URL, with the caller's signal", async () => {
    const renderer = fakeRenderer(rendered(words(80)));
    const r = await createCrawlEngine({
      http: fakeHttp({ body: app("Loading"), type: "text/html" }),
      renderer,
      clock,
    })({ url: "https://example.org/start" }, ctx);
    expect(renderer.render).toHaveBeenCalledWith("https://example.org/final", ctx.signal);
    expect(r.ok && r.value.results).toMatchObject({
      link: "https://example.org/rendered",
      metadata: { rendered: true, word_count: 81 },
    });
  });

  it.each([
    ["enableFallback is false", { body: app("Loading") }, false, rendered(words(80))],
    ["the static text is long enough", { body: app(words(40)) }, true, rendered(words(80))],
    ["the short page runs no script", { body: html("Sign in to continue") }, true, rendered(words(80))],
    [
      "its only scripts are data blocks",
      {
        body: html("Short product stub").replace(
          "</head>",
          '<script type="application/ld+json">{"@type":"Product"}</script><script type="importmap">{}</script></head>',
        ),
      },
      true,
      rendered(words(80)),
    ],
  ])("does not render when %s", async (_why, page, enableFallback, result) => {
    const renderer = fakeRenderer(result);
    const r = await createCrawlEngine({ http: fakeHttp({ ...page, type: "text/html" }), renderer, clock })(
      { url: "https://example.org/", enableFallback },
      ctx,
    );
    expect(renderer.render).not.toHaveBeenCalled();
    expect(r.ok && r.value.results.metadata?.rendered).toBe(false);
  });

  it.each([
    ["the render fails", { ok: false, code: "PLB_UPSTREAM_FAILED", message: "boom" } as const],
    ["the render holds less text", rendered("")],
  ])("keeps the static text when %s", async (_why, result) => {
    const renderer = fakeRenderer(result);
    const r = await createCrawlEngine({
      http: fakeHttp({ body: app("Loading the page"), type: "text/html" }),
      renderer,
      clock,
    })({ url: "https://example.org/" }, ctx);
    expect(r.ok && r.value.results).toMatchObject({ content: expect.stringContaining("Loading the page") });
    expect(r.ok && r.value.results.metadata?.rendered).toBe(false);
    expect(renderer.render).toHaveBeenCalledOnce();
  });

  it("keeps the static text when Chromium cannot start", async () => {
    const renderer = createBrowserRenderer({ http: fakeHttp({ body: "" }), executablePath: "/nonexistent/chromium" });
    const r = await createCrawlEngine({
      http: fakeHttp({ body: app("Loading"), type: "text/html" }),
      renderer,
      clock,
    })({ url: "https://example.org/" }, ctx);
    expect(r.ok && r.value.results.metadata?.rendered).toBe(false);
    expect(await renderer.render("https://example.org/")).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });

  it("sniffs HTML sent without a Content-Type", async () => {
    const r = await createCrawlEngine({ http: fakeHttp({ body: `<!doctype html>${html(words(40))}` }), clock })(
      { url: "https://example.org/" },
      ctx,
    );
    expect(r.ok && r.value.results).toMatchObject({ title: "Page", metadata: { content_type: "text/html" } });
  });

  it("reads a refused address as PLB_BAD_VALUE and passes other client failures through", async () => {
    const forbidden = fakeHttp({ ok: false, code: "PLB_TARGET_FORBIDDEN", message: "loopback" });
    expect(await createCrawlEngine({ http: forbidden, clock })({ url: "http://127.0.0.1/" }, ctx)).toEqual({
      ok: false,
      code: "PLB_BAD_VALUE",
      message: "loopback",
    });
    const down = fakeHttp({ ok: false, code: "PLB_UPSTREAM_FAILED", message: "timeout" });
    expect(await createCrawlEngine({ http: down, clock })({ url: "https://example.org/" }, ctx)).toMatchObject({
      code: "PLB_UPSTREAM_FAILED",
    });
  });
});
