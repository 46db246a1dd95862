// Which static pages could write their text from script, so that the crawl's browser fallback is worth a render.
import { describe, expect, it } from "vitest";
import { runsScript } from "./script-signal.ts";

describe("runsScript", () => {
  it.each([
    ['<script src="/app.js"></script>', "an external classic script"],
    ["<script>document.body.textContent = 'hi'</script>", "an inline script"],
    ['<script type="module" src="/main.js"></script>', "a module"],
    ["<SCRIPT TYPE='text/javascript'>x()</SCRIPT>", "an explicit JavaScript type, any case and quoting"],
    ['<script type="application/javascript; charset=utf-8">x()</script>', "a type with parameters"],
    ['<body onload="render()"><div id="app"></div></body>', "an onload handler"],
  ])("sees %s (%s)", (html) => {
    expect(runsScript(`<html><head>${html}</head><body></body></html>`)).toBe(true);
  });

  it.each([
    ["<p>Sign in to continue</p>", "no script at all"],
    ['<script type="application/ld+json">{"@type":"Article"}</script>', "JSON-LD"],
    ['<script type="text/template"><p>{{name}}</p></script>', "a template"],
    ['<script type="importmap">{"imports":{}}</script>', "an import map"],
    [
      "<noscript>Enable JavaScript</noscript><p>scripts mentioned in prose: <code>&lt;script&gt;</code></p>",
      "escaped text",
    ],
  ])("does not see %s (%s)", (html) => {
    expect(runsScript(`<html><head></head><body>${html}</body></html>`)).toBe(false);
  });
});
