// What the crawl keeps of a news story and what it drops (issue 13), read on the Markdown a client gets: the
// article's headings, paragraphs, list, quote, table, code with its language and links stay; the gallery and its
// counters, byline, dateline, share bar, related stories, newsletter prompt, photo credits and comments go.
import { describe, expect, it } from "vitest";
import { extractHtml } from "./html-extract.ts";

const STORY = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Night ferries return to the islands | Coastal Courier</title></head><body>
<header><nav><a href="/news">News</a> <a href="/travel">Travel</a></nav></header>
<main><article>
  <h1>Night ferries return to the islands</h1>
  <div class="byline">By Morag Elliot, Transport Correspondent</div>
  <p><time datetime="2026-03-02">March 2, 2026 7:15 AM GMT</time></p>
  <ul class="share-bar"><li><a href="/s/fb">Facebook</a></li><li><a href="/s/x">Share on X</a></li></ul>
  <div class="gallery">
    <figure><img src="/f1.jpg" alt="The ferry at dusk"><figcaption>The ferry leaves at dusk. Photo: Iain Ross</figcaption></figure>
    <div class="counter">1 of 4</div>
  </div>
  <p>After eleven years without a crossing after dark, the night ferry to the islands sails again this spring, the
  regional transport board confirmed on Monday, with a first crossing planned for the second week of April.</p>
  <div><img src="/f2.jpg" alt=""><p>Passengers queue at the pier (AP Photo/Iain Ross)</p></div>
  <h2>Why the crossing stopped</h2>
  <p>The old route closed when its only vessel failed an inspection, and no replacement could be chartered.
  Councillors said the loss cut the islands off from the rest of the country for half of every day.</p>
  <blockquote><p>People will plan their lives around that boat again.</p></blockquote>
  <ul><li>Tuesday and Thursday departures</li><li>A Saturday departure that also carries freight</li></ul>
  <h3>Related stories</h3>
  <ul><li><a href="/bridge">Bridge plan shelved again</a></li><li><a href="/dredging">Dredging to start in May</a></li></ul>
  <table><tr><th>Ticket</th><th>Fare</th></tr><tr><td>Adult</td><td>18 pounds</td></tr></table>
  <p>The board publishes each vessel's position through a public interface:</p>
  <pre><code class="language-python">status = requests.get("https://ferries.example/api").json()</code></pre>
  <p>Tickets are sold at the harbour office and on the <a href="https://ferries.example/tickets">booking page</a>.</p>
  <p><strong>Read more:</strong> <a href="/fares">Ferry fares frozen for a second year</a></p>
  <div class="newsletter"><p>Get the Courier in your inbox. <a href="/nl">Sign up</a></p></div>
  <p>Reporting by Morag Elliot; editing by Ann Fraser</p>
</article>
<section class="comments"><h2>3 comments</h2><p>About time! My mother was stuck on the mainland twice.</p></section>
</main></body></html>`;

describe("article rules, on the Markdown of a news story", () => {
  const md = extractHtml(STORY, "https://courier.example/news/ferries").markdown;

  it("keeps the article: headings, paragraphs, quote, list, table, code with its language, links", () => {
    expect(md).toMatch(/^# Night ferries return to the islands\n\nAfter eleven years/);
    expect(md).toContain("## Why the crossing stopped");
    expect(md).toContain("> People will plan their lives around that boat again.");
    expect(md).toContain("- Tuesday and Thursday departures\n- A Saturday departure that also carries freight");
    expect(md).toContain("| Ticket | Fare |\n| --- | --- |\n| Adult | 18 pounds |");
    expect(md).toContain('```python\nstatus = requests.get("https://ferries.example/api").json()\n```');
    expect(md).toContain("[booking page](https://ferries.example/tickets)");
  });

  it.each([
    ["the byline", "Morag Elliot, Transport"],
    ["the dateline", "March 2, 2026"],
    ["the share bar", "Share on X"],
    ["the gallery, its caption and counter", /dusk|1 of 4|!\[/],
    ["a photo credit left beside its picture", "AP Photo"],
    ["the related stories", /Related stories|Bridge plan|Ferry fares frozen/],
    ["the newsletter prompt", "Sign up"],
    ["the closing credits", "Reporting by"],
    ["the comments", /comments|About time/],
    ["the navigation", "Travel"],
  ])("drops %s", (_what, text) => {
    if (typeof text === "string") expect(md).not.toContain(text);
    else expect(md).not.toMatch(text);
  });
});

describe("article rules, guarded", () => {
  it.each([
    "By March, the ferry will run every night of the week.",
    "Updated guidance for ferry passengers was published by the board on its website.",
    "The latest <em>Reuters/Ipsos poll</em> shows support for the night ferry.",
  ])("keeps a sentence that only looks like a byline, a timestamp or a credit: %s", (sentence) => {
    const page = STORY.replace("<blockquote>", `<p>${sentence}</p><blockquote>`);
    const md = extractHtml(page, "https://courier.example/news/ferries").markdown;
    expect(md).toContain(sentence.replace(/<\/?em>/g, "*"));
  });

  it("keeps Readability's text when the rules together would take most of it (a misread page)", () => {
    const entry = (n: number) =>
      `<p class="timestamp">Entry ${n}: the harbour master reported the tide at its highest for the season, and the ` +
      `ferry crews held the boats at the pier until the water fell back below the quay wall.</p>`;
    const page = `<html><head><title>Harbour log</title></head><body><article><h1>Harbour log</h1>
      ${[1, 2, 3, 4, 5].map(entry).join("")}</article></body></html>`;
    const md = extractHtml(page, "https://log.example/").markdown;
    for (const n of [1, 2, 3, 4, 5]) expect(md).toContain(`Entry ${n}: the harbour master`);
  });
});
