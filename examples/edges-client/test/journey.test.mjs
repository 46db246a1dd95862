// The client's tests: what its users rely on. A call either gives a usable answer or, where the contract says the
// work itself can fail (a batch entry, a deepcrawl task), reports that outcome; it never throws on an answer the
// contract allows. They run on the naive client, or on the careful one with EDGES_CLIENT=careful; plumbline edges
// runs them once per edge with PLUMBLINE_URL and PLUMBLINE_API_KEY set.
import assert from "node:assert/strict";
import { test } from "node:test";

const which = process.env.EDGES_CLIENT === "careful" ? "careful" : "naive";
const { createClient } = await import(`../src/${which}-client.mjs`);
const client = createClient({ baseUrl: process.env.PLUMBLINE_URL, apiKey: process.env.PLUMBLINE_API_KEY });

test("search with images", async () => {
  const r = await client.search("lighthouse keepers", { maxResults: 5, images: true });
  assert.ok(r.titles.length <= 5);
  for (const t of r.titles) assert.equal(typeof t, "string");
  assert.ok(Array.isArray(r.images));
});

test("a batch of searches: every entry served or reported", async () => {
  const r = await client.searchMany(["tides", "harbours", "beacons"]);
  assert.equal(r.served.length + r.failed.length, 3);
});

test("trending on GitHub", async () => {
  const lines = await client.trending("github");
  for (const line of lines) assert.equal(typeof line, "string");
});

test("crawl a page", async () => {
  const page = await client.crawl("https://example.com/lighthouses");
  assert.equal(typeof page.title, "string");
  assert.ok(page.length > 0);
});

test("screenshot a page", async () => {
  const png = await client.screenshot("https://example.com/");
  assert.ok(png.length > 0);
});

test("deepcrawl a site: completed with a zip, or failed / not_found as an outcome", async () => {
  const outcome = await client.deepcrawl("https://example.com/");
  assert.ok(["completed", "failed", "not_found"].includes(outcome.status), `outcome ${outcome.status}`);
  if (outcome.status === "completed") assert.ok(outcome.bytes > 0);
});
