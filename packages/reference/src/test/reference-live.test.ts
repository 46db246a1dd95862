// The reference under the live contract (`--contract live`, D-live-version), on SQLite and PostgreSQL: POST /ask reads
// the request's words, searches the chosen engines through the reference's own backends (the local page index for
// the web engine, upstream stand-ins for github, hackernews and arxiv), scores, merges and ranks the results, lists a
// failed engine in `errors` and is charged 5; when every engine fails it is a 502, uncharged. POST /feedback keeps its
// report in the database before the 201 (it survives a restart; a failing store answers 503 and keeps nothing), 10
// a minute per account, 413/415/422, and the account page lists the account's own reports, escaped. Every answer is
// validated against the live document.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { askLinkKey } from "@plumbline-kit/platform/ask-intent";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cookieJar } from "../../../../test-support/http-consent.ts";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { listFeedback } from "../feedback-command.ts";
import { type ReferenceOptions, type RunningReference, startReference } from "../start-reference.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const DAY = 86_400_000;
const NOW = Date.parse("2026-11-26T12:00:00Z");
const recorded = (name: string) => readFileSync(join(import.meta.dirname, "fixtures/upstream", name), "utf8");

let live: Contract;
let upstream: Server;
let upstreamUrl: string;
const dirs: string[] = [];

beforeAll(async () => {
  live = await loadContract({ version: "live" });
  // GitHub and Hacker News answer their recorded answers; arXiv and SearXNG are down
  upstream = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/search/repositories")
      return res.writeHead(200, { "content-type": "application/json" }).end(recorded("github-repositories.json"));
    if (path === "/api/v1/search")
      return res.writeHead(200, { "content-type": "application/json" }).end(recorded("hackernews-search.json"));
    res.writeHead(503, { "content-type": "text/plain" }).end("overloaded");
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, asserted field by field
  body: any;
}

/** A call of the reference, its answer judged by the live document (status listed, body and headers valid). */
async function call(
  base: string,
  operationId: string,
  path: string,
  init: { key?: string; body?: string | object; type?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": init.type ?? "application/json" };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers,
    body: typeof init.body === "string" ? init.body : JSON.stringify(init.body ?? {}),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  expect(
    live.validators.checkResponse(operationId, res.status, res.headers.get("content-type") ?? undefined, body),
    `${path} ${res.status} ${text.slice(0, 300)}`,
  ).toBeNull();
  expect(
    live.validators.checkResponseHeaders(operationId, res.status, Object.fromEntries(res.headers)),
    `${path} ${res.status} headers`,
  ).toBeNull();
  return { status: res.status, headers: res.headers, text, body };
}

const balance = async (base: string, key: string) =>
  ((await (await fetch(`${base}/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as { usage: number })
    .usage;

const KEYS = ["k", "fb-store", "fb-fail", "fb-rate", "fb-limits"].map((key) => ({ key, credits: 1000 }));

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`the reference under --contract live (${kind})`, () => {
    let ref: RunningReference;
    let options: ReferenceOptions;
    let now = NOW;
    const ask = (query: unknown, key = "k") => call(ref.url, "ask", "/ask", { key, body: { query } });
    const feedback = (body: unknown, key: string, type?: string) =>
      call(ref.url, "feedback", "/feedback", { key, body: body as object, type });

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-live-"));
      dirs.push(dir);
      options = {
        port: 0,
        dataDir: dir,
        databaseUrl:
          kind === "postgres" ? await freshPostgresSchema(PG as string, "plumbline_ref_live_test") : undefined,
        contractVersion: "live",
        clock: { now: () => now },
        keys: [...KEYS, { key: "broke", credits: 0 }],
        // the web engine answers from the local index; github and hackernews from their stand-ins; arxiv is down
        searchUpstreams: {
          githubApiUrl: upstreamUrl,
          hackernewsUrl: upstreamUrl,
          arxivUrl: upstreamUrl,
          timeoutMs: 5000,
        },
      };
      ref = await startReference(options);
      const page = (url: string, title: string, markdown: string, publishedAt: string | null) =>
        ref.pageIndex.add({ url, title, markdown, fetchedAt: new Date(NOW - 30 * DAY).toISOString(), publishedAt });
      await page(
        "https://fastify.dev/docs/latest/Guides/Benchmarking/",
        "Benchmarking Fastify",
        "How to benchmark a Fastify server with autocannon.",
        new Date(NOW - 2 * DAY).toISOString(),
      );
      // GitHub's repository, indexed under another spelling of its link: one result once merged
      await page(
        "http://www.github.com/fastify/fastify/",
        "Fastify on GitHub",
        "The fastify repository.",
        new Date(NOW - DAY).toISOString(),
      );
      await page(
        "https://k8s.example/operators-new",
        "Kubernetes operators in practice",
        "Writing kubernetes operators with controller-runtime.",
        new Date(NOW - 3 * DAY).toISOString(),
      );
      await page(
        "https://k8s.example/operators-old",
        "Kubernetes operators, the early days",
        "The first kubernetes operators.",
        new Date(NOW - 90 * DAY).toISOString(),
      );
      await page("https://sea.example/tide-pools", "Life in tide pools", "Anemones and hermit crabs.", null);
      await page("https://bread.example/sourdough", "Baking sourdough bread", "A lively starter.", null);
      await page("https://ml.example/diffusion", "Diffusion models explained", "How diffusion models denoise.", null);
    }, 60_000);

    afterAll(async () => {
      await ref?.close();
    });

    describe("POST /ask", () => {
      it("reads engines and window from the words and searches them: github and the web engine, this week", async () => {
        const r = await ask("fastify on github this week");
        expect(r.status).toBe(200);
        expect(r.body.query).toBe("fastify on github this week");
        expect(r.body.intent).toEqual({ search_query: "fastify", sources: ["github", "google"], time_range: "week" });
        expect(r.body.errors).toEqual([]);
        // GitHub's fastify/fastify (the stand-in; fastify-plugin, pushed in October, is outside the week) and the
        // index's copy of it merged into one, GitHub's; the index's benchmarking page from the web engine
        expect(r.body.results.map((x: { link: string; source: string }) => [x.link, x.source])).toEqual([
          ["https://github.com/fastify/fastify", "github"],
          ["https://fastify.dev/docs/latest/Guides/Benchmarking/", "google"],
        ]);
        expect(r.body.results[0]).toMatchObject({ title: "fastify/fastify", relevance: 1 });
        for (const x of r.body.results) expect(Date.parse(x.published_date)).toBeGreaterThanOrEqual(NOW - 7 * DAY);
      });

      it("answers relevance in 0.5..1 with two decimals, best first, each page once; a weak match is left out", async () => {
        for (const query of ["tide pools sourdough", "fastify benchmarks", "kubernetes operators"]) {
          const r = await ask(query);
          expect(r.status, query).toBe(200);
          const scores = r.body.results.map((x: { relevance: number }) => x.relevance);
          expect(scores.length, query).toBeGreaterThan(0);
          expect(
            scores.every((s: number) => s >= 0.5 && s <= 1 && Math.round(s * 100) === s * 100),
            query,
          ).toBe(true);
          expect(scores, query).toEqual([...scores].sort((a: number, b: number) => b - a));
          const keys = r.body.results.map((x: { link: string }) => askLinkKey(x.link));
          expect(new Set(keys).size, query).toBe(keys.length);
        }
        // two of the three keywords (0.72) stay; one of them (0.40) does not
        const mixed = await ask("tide pools sourdough");
        expect(mixed.body.results.map((x: { link: string }) => x.link)).toEqual(["https://sea.example/tide-pools"]);
        expect(mixed.body.results[0].relevance).toBe(0.72);
      });

      it("keeps only results published within the window asked for", async () => {
        const week = await ask("kubernetes operators this week");
        expect(week.body.results.map((x: { link: string }) => x.link)).toEqual(["https://k8s.example/operators-new"]);
        const year = await ask("kubernetes operators this year");
        expect(year.body.results.map((x: { link: string }) => x.link).sort()).toEqual([
          "https://k8s.example/operators-new",
          "https://k8s.example/operators-old",
        ]);
      });

      it("lists a failed engine in errors and is charged 5 credits all the same", async () => {
        const before = await balance(ref.url, "k");
        const r = await ask("diffusion models papers");
        expect(r.status).toBe(200);
        expect(r.body.intent.sources).toEqual(["arxiv", "google"]);
        expect(r.body.errors).toEqual([{ source: "arxiv", message: "The arXiv upstream answered 503" }]);
        expect(r.body.results[0]).toMatchObject({ link: "https://ml.example/diffusion", source: "google" });
        expect(before - (await balance(ref.url, "k"))).toBe(5);
      });

      it("reads hacker news through the news engine: its stories scored like the rest", async () => {
        const r = await ask("sqlite search engine on hacker news");
        expect(r.body.intent.sources).toEqual(["hackernews", "google"]);
        expect(r.body.results[0]).toMatchObject({
          title: "Show HN: A search engine in one SQLite file",
          source: "hackernews",
          published_date: "2026-11-25T16:20:00Z",
        });
      });

      it("refuses what every paid operation refuses: 402 when broke, 422 naming the field, uncharged", async () => {
        expect((await ask("fastify", "broke")).status).toBe(402);
        const before = await balance(ref.url, "k");
        const extra = await call(ref.url, "ask", "/ask", { key: "k", body: { query: "fastify", max_results: 3 } });
        expect([extra.status, extra.body.errors]).toEqual([
          422,
          [expect.objectContaining({ field: "/max_results", code: "additionalProperties" })],
        ]);
        const long = await ask("x".repeat(501));
        expect([long.status, long.body.errors[0].field, long.body.errors[0].code]).toEqual([
          422,
          "/query",
          "maxLength",
        ]);
        expect(await balance(ref.url, "k")).toBe(before);
      });
    });

    it("sends the result fields github and hackernews give (D-result-fields), valid by the live document", async () => {
      const gh = await call(ref.url, "search", "/search", {
        key: "k",
        body: { query: "fastify", search_service: "github" },
      });
      expect(gh.body.results[0]).toMatchObject({ kind: "repo", stars: 33000, language: "JavaScript" });
      const hn = await call(ref.url, "news", "/news", {
        key: "k",
        body: { query: "search", search_service: "hackernews" },
      });
      expect(
        hn.body.results.map((x: Record<string, unknown>) => [x.link, x.story_url, x.points, x.num_comments]),
      ).toEqual([
        ["https://news.ycombinator.com/item?id=41000001", "https://example.com/sqlite-search", 512, 120],
        ["https://news.ycombinator.com/item?id=41000002", "", 12, 3],
      ]);
    });

    describe("POST /feedback", () => {
      let kept = "";

      it("answers 201 with the report's id once the row is written, echoing neither the report nor the key", async () => {
        const body = {
          message: "Sitemap returned no links",
          category: "bug",
          intent: "list a site's pages",
          request_id: "req_1234",
          agent: { name: "research-agent", model: "local-7b" },
        };
        const before = await balance(ref.url, "fb-store");
        const r = await feedback(body, "fb-store");
        expect(r.status).toBe(201);
        expect(r.body).toEqual({ id: expect.stringMatching(/^fb_[a-z2-7]{20}$/), status: "new" });
        expect(r.text).not.toContain("fb-store");
        expect(r.text).not.toContain("Sitemap");
        kept = r.body.id;
        const rows = await ref.feedback.listNewest();
        expect(rows.find((x) => x.id === kept)).toMatchObject({
          ...body,
          receivedAt: new Date(now).toISOString(),
          requestId: r.headers.get("x-request-id"),
        });
        // free
        expect(await balance(ref.url, "fb-store")).toBe(before);
        // the category defaults to other
        const plain = await feedback({ message: "thanks" }, "fb-store");
        expect((await ref.feedback.listNewest()).find((x) => x.id === plain.body.id)?.category).toBe("other");
      });

      it("answers 503 and keeps nothing when the store fails", async () => {
        const count = async () => (await ref.feedback.list()).length;
        const before = await count();
        const undo = await breakFeedbackTable(kind, options);
        try {
          const r = await feedback({ message: "lost?" }, "fb-fail");
          expect([r.status, r.body.code]).toEqual([503, "PLB_SERVICE_UNAVAILABLE"]);
          expect(r.text).not.toContain("fb-fail");
        } finally {
          await undo();
        }
        expect(await count()).toBe(before);
        expect((await ref.feedback.list()).some((x) => x.message === "lost?")).toBe(false);
        // the store back, the next report is kept
        expect((await feedback({ message: "kept now" }, "fb-fail")).status).toBe(201);
      });

      it("refuses the eleventh report of an account within a minute (429), and takes one in the next minute", async () => {
        now = Math.floor(NOW / 60_000) * 60_000 + 120_000;
        for (let i = 1; i <= 10; i++)
          expect((await feedback({ message: `report ${i}` }, "fb-rate")).status, `#${i}`).toBe(201);
        const eleventh = await feedback({ message: "report 11" }, "fb-rate");
        expect([eleventh.status, eleventh.body.code]).toEqual([429, "PLB_RATE_LIMITED"]);
        expect(eleventh.headers.get("retry-after")).toBeTruthy();
        // another account is not held back
        expect((await feedback({ message: "mine" }, "fb-limits")).status).toBe(201);
        now += 60_000;
        expect((await feedback({ message: "report 12" }, "fb-rate")).status).toBe(201);
        expect((await ref.feedback.list()).filter((x) => x.message.startsWith("report ")).length).toBe(11);
      });

      it("refuses a body over 16 KiB (413), one that is not JSON (415), a violated field (422), no key (401)", async () => {
        const big = await feedback(
          { message: "x".repeat(4000), intent: "y".repeat(2000), pad: "z".repeat(12_000) },
          "fb-limits",
        );
        expect([big.status, big.body.code]).toEqual([413, "PLB_PAYLOAD_TOO_LARGE"]);
        const text = await call(ref.url, "feedback", "/feedback", {
          key: "fb-limits",
          body: "hello",
          type: "text/plain",
        });
        expect([text.status, text.body.code]).toEqual([415, "PLB_MEDIA_TYPE_REFUSED"]);
        const empty = await feedback({ message: "" }, "fb-limits");
        expect([empty.status, empty.body.errors[0].field]).toEqual([422, "/message"]);
        const unknown = await feedback({ message: "hi", priority: "high" }, "fb-limits");
        expect([unknown.status, unknown.body.errors[0]]).toEqual([
          422,
          expect.objectContaining({ field: "/priority", code: "additionalProperties" }),
        ]);
        const category = await feedback({ message: "hi", category: "praise" }, "fb-limits");
        expect([category.status, category.body.errors[0].field]).toEqual([422, "/category"]);
        const anonymous = await call(ref.url, "feedback", "/feedback", { body: { message: "hi" } });
        expect(anonymous.status).toBe(401);
        for (const r of [big, text, empty, unknown, category]) expect(r.text).not.toContain("fb-limits");
        expect((await ref.feedback.list()).some((x) => x.message === "hi")).toBe(false);
      });

      it("lists an account's own reports on its account page, escaped; another account's never", async () => {
        const jar = cookieJar();
        const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
        const page = async (path: string, fields?: Record<string, string>) => {
          const res = await fetch(`${ref.url}${path}`, {
            method: fields ? "POST" : "GET",
            redirect: "manual",
            headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
            body: fields ? new URLSearchParams(fields).toString() : undefined,
          });
          jar.take(res);
          return res.text();
        };
        const signUp = await page("/account/signup");
        await page("/account/signup", {
          _csrf: csrfOf(signUp),
          login: `writer-${kind}`,
          password: "password of some length",
        });
        const dash = await page("/account");
        expect(dash).not.toContain('id="feedback"');
        const created = await page("/account/keys", { _csrf: csrfOf(dash) });
        const key = /id="new-key">([^<]+)</.exec(created)?.[1] as string;
        const sent = await feedback({ message: "<script>alert(1)</script> & more", category: "docs" }, key);
        expect(sent.status).toBe(201);
        const listed = await page("/account");
        const table = /<table id="feedback">.*?<\/table>/s.exec(listed)?.[0] ?? "";
        expect(table).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
        expect(table).not.toContain("<script>");
        expect(table).toContain(`<td>docs</td>`);
        expect(table).toContain(`<code>${sent.body.id}</code>`);
        expect(table).toContain(`<td>${new Date(now).toISOString()}</td>`);
        // the reports of the keys seeded at start belong to other accounts
        expect(table).not.toContain("Sitemap returned no links");
        expect(table.match(/<tr>/g)?.length).toBe(2); // the header and the one report
      });

      it("keeps the reports across a restart", async () => {
        await ref.close();
        ref = await startReference(options);
        const rows = await ref.feedback.listNewest();
        expect(rows.find((x) => x.id === kept)).toMatchObject({
          message: "Sitemap returned no links",
          category: "bug",
        });
        expect((await feedback({ message: "after the restart" }, "fb-store")).status).toBe(201);
      });

      it("lists every account's reports to the operator: plumbline reference feedback list", async () => {
        const lines: string[] = [];
        const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
        const db = { dataDir: options.dataDir as string, databaseUrl: options.databaseUrl };
        try {
          expect(await listFeedback({ ...db, limit: 2 })).toBe(0);
          expect(lines[1]).toBe("  after the restart");
          lines.length = 0;
          expect(await listFeedback({ ...db, json: true })).toBe(0);
          const all = JSON.parse(lines.join("\n")) as Array<{ id: string; message: string; accountId: string }>;
          // newest first, every account's, the failed one absent
          expect(all[0]?.message).toBe("after the restart");
          expect(all.find((x) => x.id === kept)).toMatchObject({
            intent: "list a site's pages",
            request_id: "req_1234",
          });
          expect(new Set(all.map((x) => x.accountId)).size).toBe(5);
          expect(all.some((x) => x.message === "lost?")).toBe(false);
          lines.length = 0;
          expect(await listFeedback({ ...db, account: all.find((x) => x.id === kept)?.accountId })).toBe(0);
          expect(lines.filter((l) => !l.startsWith(" ")).length).toBe(3); // fb-store's three reports
        } finally {
          spy.mockRestore();
        }
      });
    });
  });
}

/** Makes every insert into the feedback table fail (a trigger raising an error) until the returned undo runs. */
async function breakFeedbackTable(kind: "sqlite" | "postgres", o: ReferenceOptions): Promise<() => Promise<void>> {
  if (kind === "sqlite") {
    const db = new SQLite(join(o.dataDir as string, "plumbline.db"));
    db.pragma("busy_timeout = 5000");
    db.exec(
      "CREATE TRIGGER feedback_down BEFORE INSERT ON feedback_reports BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    return async () => {
      db.exec("DROP TRIGGER feedback_down");
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: o.databaseUrl });
  await client.connect();
  await client.query(
    "create or replace function feedback_down() returns trigger language plpgsql as $$ begin raise exception 'store down'; end $$",
  );
  await client.query(
    "create trigger feedback_down before insert on feedback_reports for each row execute function feedback_down()",
  );
  return async () => {
    await client.query("drop trigger feedback_down on feedback_reports");
    await client.end();
  };
}

describe("the reference under --contract live with every engine down", () => {
  let ref: RunningReference;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-live-down-"));
    dirs.push(dir);
    // SearXNG answers every engine's value, and it is down
    ref = await startReference({
      port: 0,
      dataDir: dir,
      contractVersion: "live",
      keys: [{ key: "k", credits: 100 }],
      searchUpstreams: { searxngUrl: upstreamUrl, timeoutMs: 5000 },
    });
  }, 60_000);
  afterAll(async () => {
    await ref?.close();
  });

  it("answers 502 PLB_UPSTREAM_FAILED, uncharged", async () => {
    const r = await call(ref.url, "ask", "/ask", { key: "k", body: { query: "vector databases on github" } });
    expect([r.status, r.body.code]).toEqual([502, "PLB_UPSTREAM_FAILED"]);
    expect(r.body.message).toContain("github");
    expect(r.body.message).toContain("google");
    expect(await balance(ref.url, "k")).toBe(100);
  });
});
