// Test support: the pages of the fixture websites. Every piece of boilerplate carries a marker the tests look for,
// so "none of the nav/script/banner/footer text" is checked on words that cannot appear by chance.

export const MARKERS = ["NAVMARKER", "SCRIPTMARKER", "STYLEMARKER", "COOKIEMARKER", "FOOTERMARKER", "ASIDEMARKER"];

export const ARTICLE_HTML = `<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>Tidal energy in small harbours | Harbour Weekly</title>
  <meta name="description" content="How small harbours turn the tide into electricity.">
  <meta property="og:site_name" content="Harbour Weekly">
  <meta property="article:published_time" content="2026-03-14T09:30:00Z">
  <link rel="canonical" href="/articles/tidal-energy">
  <script>window.tracking = "SCRIPTMARKER in the head";</script>
  <style>.x::before { content: "STYLEMARKER"; }</style>
</head>
<body>
  <header><a href="/">Harbour Weekly</a> <nav><a href="/news">NAVMARKER News</a> <a href="/about">About</a></nav></header>
  <div id="cookie-banner" class="consent">COOKIEMARKER We use cookies to improve your visit.
    <button type="button">Accept all cookies</button></div>
  <main>
    <article>
      <h1>Tidal energy in small harbours</h1>
      <p>Small harbours along the coast are turning the daily rise and fall of the sea into steady electricity.
      Each turbine sits in the harbour mouth and runs twice a day, when the water flows in and when it flows out.</p>
      <p>The engineers who built the first installation say the <a href="/docs/turbines">turbine design</a> borrows from
      river hydro plants, scaled down so that a fishing village can maintain it with the tools it already owns.</p>
      <h2>What it costs</h2>
      <ul><li>Turbines and foundations</li><li>Grid connection and metering</li></ul>
      <h2>Reading the meter</h2>
      <p>The controller exposes its readings over a small HTTP interface, queried like this:</p>
      <pre><code class="language-js">const reading = await fetch("/meter").then((r) => r.json());</code></pre>
      <script>document.write("");/* SCRIPTMARKER inside the article */</script>
    </article>
    <aside>ASIDEMARKER Related: ten harbours to visit this summer.</aside>
  </main>
  <footer>FOOTERMARKER Copyright Harbour Weekly. <a href="/privacy">Privacy</a></footer>
  <script>document.getElementById("cookie-banner").dataset.note = "SCRIPTMARKER at the end";</script>
</body>
</html>`;

/** Words the article's script writes; none of them is in the static HTML. */
export const SCRIPT_WRITTEN = "Lighthouse keepers logged every passing ship";

export const JS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Lighthouse logbook</title><script src="/app.js" defer></script></head>
<body><div id="app">Loading…</div></body>
</html>`;

export const JS_APP = `
document.getElementById("app").innerHTML =
  "<article><h1>Lighthouse logbook</h1>" +
  "<p>${SCRIPT_WRITTEN} in a bound logbook, noting the weather, the light and the state of the sea.</p>" +
  "<p>The logbooks kept at the harbour museum span two centuries and record storms, wrecks and rescues in the " +
  "plain words of the keepers who stood the night watches through every season of the year.</p></article>";
`;

export const LINKS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Links</title></head>
<body><main><h1>Links</h1><ul>
  <li><a href="{{BASE}}/article.html">Article</a></li>
  <li><a href="/docs/one.html">Docs one</a></li>
  <li><a href="docs/two.html#section-2">Docs two, a section</a></li>
  <li><a href="/docs/one.html">Docs one again</a></li>
  <li><a href="https://example.org/elsewhere">Elsewhere</a></li>
  <li><a href="http://other.example.net/page?x=1#top">Another host</a></li>
  <li><a href="#top">Top</a> <a href="mailto:someone@example.org">Mail</a> <a href="javascript:void(0)">Script</a></li>
</ul></main></body></html>`;
