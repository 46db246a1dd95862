// `--errors` refuses what the contract refuses, with the service's own answer, before the upstream sees it; an
// upstream that resets or stalls is answered 502 in the contract's shape and reported; and the command, run as a CI
// step runs it, exits 1 with --fail-on violation.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, startCliProcess } from "../../../../../test-support/cli-process.ts";
import { startProxy } from "../start-proxy.ts";
import { startUpstreamDouble, type UpstreamDouble } from "./upstream-double.ts";

const KEY = "errors-key-77aa11bb";
let contract: Contract;
let mock: RunningMock;
let upstream: UpstreamDouble;
let dir: string;

beforeAll(async () => {
  contract = await loadContract();
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 100 }], contract });
  upstream = await startUpstreamDouble(mock.url);
  dir = mkdtempSync(join(tmpdir(), "plumbline-proxy-errors-"));
});
afterAll(async () => {
  await upstream.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (base: string, path: string, body: string, key: string | null = KEY) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-request-id": "same-id",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body,
  });

describe("--errors", () => {
  it("refuses an invalid request with exactly the service's answer, and the upstream never sees it", async () => {
    const proxy = await startProxy({ upstream: upstream.url, port: 0, errors: true, reportDir: null, contract });
    try {
      const invalid = JSON.stringify({ query: "x", max_results: 999, colour: "red" });
      const direct = await post(mock.url, "/search", invalid);
      const before = upstream.count("POST", "/search");
      const refused = await post(proxy.url, "/search", invalid);
      expect(upstream.count("POST", "/search")).toBe(before);
      expect(refused.status).toBe(422);
      expect(refused.status).toBe(direct.status);
      expect(await refused.json()).toEqual(await direct.json());
      for (const h of ["content-type", "x-request-id", "link"])
        expect(refused.headers.get(h)).toBe(direct.headers.get(h));
      // malformed JSON and a shapeless body: the service's 400s
      const malformed = await post(proxy.url, "/search", "{not json");
      expect([malformed.status, ((await malformed.json()) as { code: string }).code]).toEqual([
        400,
        "PLB_MALFORMED_JSON",
      ]);
      const shapeless = await post(proxy.url, "/crawl", "[]");
      expect([shapeless.status, ((await shapeless.json()) as { code: string }).code]).toEqual([400, "PLB_BODY_SHAPE"]);
      expect(upstream.count("POST", "/crawl")).toBe(0);
      // an anonymous call is the service's to answer (402 before validation), and a valid one goes through
      expect((await post(proxy.url, "/search", invalid, null)).status).toBe(402);
      expect((await post(proxy.url, "/search", JSON.stringify({ query: "fine" }))).status).toBe(200);
      expect(upstream.count("POST", "/search")).toBe(before + 2);
      const report = proxy.report();
      expect(report.totals.refused).toBe(3);
      expect(report.operations.find((o) => o.operationId === "search")?.rules.map((g) => g.rule)).toEqual([
        "request-schema",
        "request-json",
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("without --errors the same request reaches the upstream and is only reported", async () => {
    const proxy = await startProxy({ upstream: upstream.url, port: 0, reportDir: null, contract });
    try {
      const before = upstream.count("POST", "/search");
      const res = await post(proxy.url, "/search", JSON.stringify({ query: "x", max_results: 999 }));
      expect(res.status).toBe(422);
      expect(upstream.count("POST", "/search")).toBe(before + 1);
      expect(proxy.report().totals.violations).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});

describe("an upstream that does not answer", () => {
  let stalled: Server;
  let stalledUrl: string;
  beforeAll(async () => {
    stalled = createServer(() => {
      // never answers
    });
    await new Promise<void>((r) => stalled.listen(0, "127.0.0.1", r));
    stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    stalled.closeAllConnections();
    stalled.close();
  });

  it("a reset, a timeout and a refused connection are each a 502 in the contract's shape, reported", async () => {
    const resetting = await startUpstreamDouble(mock.url, { reset: ["/crawl"] });
    const cases = [
      { upstream: resetting.url, path: "/crawl", error: /ECONNRESET|socket hang up/ },
      { upstream: stalledUrl, path: "/search", error: /ETIMEDOUT/ },
      { upstream: "http://127.0.0.1:9", path: "/search", error: /ECONNREFUSED/ },
    ];
    try {
      for (const c of cases) {
        const proxy = await startProxy({
          upstream: c.upstream,
          port: 0,
          reportDir: null,
          upstreamTimeoutMs: 200,
          contract,
        });
        try {
          const res = await post(proxy.url, c.path, JSON.stringify({ query: "q", url: "https://example.com/" }));
          expect(res.status).toBe(502);
          const body = (await res.json()) as Record<string, unknown>;
          expect(body).toMatchObject({ ok: false, error: "Bad Gateway", code: "PLB_UPSTREAM_FAILED" });
          expect(
            contract.validators.checkResponse("search", 502, res.headers.get("content-type") ?? "", body),
          ).toBeNull();
          const rules = proxy.report().operations.flatMap((o) => o.rules);
          expect(rules.map((g) => g.rule)).toContain("upstream-answers");
          expect(rules.find((g) => g.rule === "upstream-answers")?.examples[0].message).toMatch(c.error);
        } finally {
          await proxy.close();
        }
      }
    } finally {
      await resetting.close();
    }
  });
});

describe("plumbline proxy, run as a CI step", () => {
  it("--help exits 0 and creates nothing", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "plumbline-proxy-help-"));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [BIN, "proxy", "--help"], { cwd });
      expect(stdout.replace(/\s+/g, " ")).toMatch(/--fail-on <when> .* \(choices: "violation", "response", "never"/);
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("--fail-on violation exits 1 once a violation was seen, with the report and the recording written", async () => {
    const faulty = await startUpstreamDouble(mock.url, { unlistedStatus: true });
    const reportDir = join(dir, "cli-report");
    const child = await startCliProcess(
      [
        "proxy",
        "--upstream",
        faulty.url,
        "--port",
        "0",
        "--report-dir",
        reportDir,
        "--fail-on",
        "violation",
        "--record",
        join(reportDir, "session.har"),
      ],
      "proxy",
    );
    try {
      const res = await post(child.url, "/sitemap", JSON.stringify({ url: "https://example.com/" }));
      expect(res.status).toBe(418);
      const exit = new Promise<number | null>((r) => child.child.once("exit", (code) => r(code)));
      child.child.kill("SIGTERM");
      expect(await exit).toBe(1);
      const report = JSON.parse(readFileSync(join(reportDir, "proxy.json"), "utf8"));
      expect(report.operations[0]).toMatchObject({ operationId: "sitemap", violations: 1 });
      expect(readFileSync(join(reportDir, "junit.xml"), "utf8")).toContain('name="response-status-listed"');
      // the recording is written on SIGTERM too, whole
      const har = JSON.parse(readFileSync(join(reportDir, "session.har"), "utf8"));
      expect(har.log.entries.map((e: { response: { status: number } }) => e.response.status)).toEqual([418]);
    } finally {
      await child.stop();
      await faulty.close();
    }
  });
});
