// One corpus of exchanges (test-support/exchange-corpus/*.yaml: a request, its answer, the violations expected; the
// live contract's in exchange-corpus/live/, judged with the live document),
// judged by each of the four judges through its own record of an exchange: the conformance suite's, the proxy's,
// the fuzzer's and the mock replay's load-time validation (a HAR loaded by the mock). Every judge must give the
// same verdict (the registry's rule ids on the answer's side) on every exchange, and it must be the expected one.
// An exchange a judge never meets by design says so (`notSeenBy`), and the replay says itself which entries it
// does not serve (a 402 is the account's state, a free operation is the mock's own, an invalid request is refused
// before any recording).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Contract, loadContract } from "../packages/contract/src/index.ts";
import type { HarDocument } from "../packages/mock/src/replay/har-file.ts";
import { type RunningMock, startMock } from "../packages/mock/src/start-mock.ts";
import { judgeAnswer } from "../packages/tools/src/conformance/answer-judge.ts";
import { operationFor } from "../packages/tools/src/conformance/http-client.ts";
import type { Exchange as SuiteExchange } from "../packages/tools/src/conformance/types.ts";
import { conformanceFailures } from "../packages/tools/src/fuzz/checks/transport-checks.ts";
import type { HttpOutcome } from "../packages/tools/src/fuzz/http/http-client.ts";
import type { Exchange as ProxyExchange } from "../packages/tools/src/proxy/exchange.ts";
import { createExchangeJudge } from "../packages/tools/src/proxy/judge/exchange-judge.ts";
import { RULE_BY_ID } from "../packages/tools/src/proxy/judge/rules.ts";
import { createOperationMatcher } from "../packages/tools/src/proxy/operation-match.ts";

interface CorpusExchange {
  name: string;
  why: string;
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; headers: Record<string, string>; body?: unknown; bodyBase64?: string };
  expected: string[];
  notSeenBy?: Record<string, string>;
  /** when the answer arrived (RFC 3339), for the judges that record it (a challenge's expiry is judged against it) */
  at?: string;
}

const DIR = join(import.meta.dirname, "exchange-corpus");
const read = (dir: string): CorpusExchange[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .flatMap((f) => parse(readFileSync(join(dir, f), "utf8")) as CorpusExchange[]);
const corpus = read(DIR);
/** the live contract's own operations (issue 39), judged with the live document (exchange-corpus/live/) */
const liveCorpus = read(join(DIR, "live"));

const requestText = (e: CorpusExchange) => (e.request.body === undefined ? "" : JSON.stringify(e.request.body));
const responseBytes = (e: CorpusExchange) =>
  e.response.bodyBase64 !== undefined
    ? Buffer.from(e.response.bodyBase64, "base64")
    : Buffer.from(e.response.body === undefined ? "" : JSON.stringify(e.response.body));
const verdict = (rules: Iterable<string>) => [...new Set(rules)].sort();
const arrivedAt = (e: CorpusExchange) => (e.at === undefined ? undefined : Date.parse(e.at));

function bySuite(contract: Contract, e: CorpusExchange): string[] {
  const ex: SuiteExchange = {
    id: 1,
    by: "corpus",
    operationId: operationFor(contract, e.request.method, e.request.path),
    request: {
      method: e.request.method,
      url: `http://target.test${e.request.path}`,
      headers: e.request.headers,
      ...(e.request.body === undefined ? {} : { body: requestText(e) }),
    },
    response: {
      status: e.response.status,
      headers: e.response.headers,
      contentType: e.response.headers["content-type"] ?? "",
      ...(e.response.body === undefined ? {} : { json: e.response.body }),
      text: "",
      bytes: responseBytes(e).length,
    },
    raw: responseBytes(e),
    ...(e.request.body === undefined ? {} : { sent: e.request.body }),
    ...(e.at === undefined ? {} : { at: arrivedAt(e) }),
    durationMs: 0,
  };
  return verdict(judgeAnswer(contract, ex).map((v) => v.rule));
}

function byProxy(contract: Contract, e: CorpusExchange): string[] {
  const ex: ProxyExchange = {
    id: 1,
    // the proxy records when each exchange started (the answer arrived at startedAt + send + wait)
    startedAt: arrivedAt(e) ?? 0,
    timings: { send: 0, wait: 0, receive: 0 },
    servedBy: "upstream",
    request: {
      method: e.request.method,
      path: e.request.path,
      httpVersion: "1.1",
      headers: Object.entries(e.request.headers),
      body: Buffer.from(requestText(e)),
    },
    response: {
      status: e.response.status,
      statusText: "",
      httpVersion: "1.1",
      headers: Object.entries(e.response.headers),
      body: responseBytes(e),
    },
  };
  const judge = createExchangeJudge(contract, createOperationMatcher(contract));
  return verdict(
    judge
      .judge(ex)
      .filter((v) => RULE_BY_ID.get(v.rule)?.side === "response")
      .map((v) => v.rule),
  );
}

function byFuzzer(contract: Contract, e: CorpusExchange): string[] {
  const operationId = operationFor(contract, e.request.method, e.request.path);
  if (!operationId) throw new Error(`${e.name}: the fuzzer judges operations only; say so in notSeenBy`);
  const bytes = responseBytes(e);
  const outcome: HttpOutcome = {
    ok: true,
    status: e.response.status,
    headers: e.response.headers,
    contentType: e.response.headers["content-type"] ?? "",
    json: e.response.body,
    jsonError: false,
    bytes: bytes.length,
    body: bytes,
    ms: 0,
  };
  const failures = conformanceFailures(contract, operationId, outcome, {
    method: e.request.method as "GET" | "POST",
    path: e.request.path,
    ...(e.request.body === undefined ? {} : { body: e.request.body }),
    headers: e.request.headers,
  });
  return verdict(failures.map((f) => f.rule ?? `(${f.check} without a rule)`));
}

/** The corpus as one HAR recording, loaded by the mock: the replay's own validation at load. */
function har(entries: CorpusExchange[]) {
  return {
    log: {
      version: "1.2",
      entries: entries.map((e) => ({
        request: {
          method: e.request.method,
          url: `http://recorded.test${e.request.path}`,
          headers: Object.entries(e.request.headers).map(([name, value]) => ({ name, value })),
          ...(e.request.body === undefined ? {} : { postData: { mimeType: "application/json", text: requestText(e) } }),
        },
        response: {
          status: e.response.status,
          headers: Object.entries(e.response.headers).map(([name, value]) => ({ name, value })),
          content: {
            size: responseBytes(e).length,
            mimeType: e.response.headers["content-type"] ?? "",
            text: responseBytes(e).toString("base64"),
            encoding: "base64",
          },
        },
      })),
    },
  };
}

let contract: Contract;
let mock: RunningMock;
let live: Contract;
let liveMock: RunningMock;
beforeAll(async () => {
  contract = await loadContract();
  live = await loadContract({ version: "live" });
  const replaying = (c: Contract, entries: CorpusExchange[]) =>
    startMock({
      port: 0,
      contract: c,
      seed: 1,
      keys: [{ key: "k", credits: 100 }],
      replay: har(entries) as HarDocument,
    });
  [mock, liveMock] = await Promise.all([replaying(contract, corpus), replaying(live, liveCorpus)]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), liveMock?.close()]);
});

function byReplay(index: number, replaying: RunningMock = mock): string[] | { skipped: string } {
  const report = replaying.replay;
  if (!report) throw new Error("the mock loaded no recording");
  const skip = report.skipped.find((s) => s.entry === index);
  if (skip) return { skipped: `${skip.reason}: ${skip.detail}` };
  const invalid = report.invalid.find((v) => v.entry === index);
  return verdict((invalid?.errors ?? []).map((x) => x.rule ?? `(${x.code} without a rule)`));
}

describe("every judge gives the same verdict on every exchange of the corpus", () => {
  it("holds a clean exchange for every operation of the contract, and the disagreements found", () => {
    const clean = new Set(
      corpus
        .filter((e) => e.expected.length === 0)
        .map((e) => operationFor(contract, e.request.method, e.request.path)),
    );
    expect([...clean].sort()).toEqual(contract.contractOperations.map((o) => o.operationId).sort());
    expect(corpus.find((e) => e.name === "non-numeric-cost")?.expected).toContain("batch-entry-cost");
  });

  it.each(corpus.map((e, i) => [e.name, e, i] as const))("%s", (_name, e, index) => {
    const expected = verdict(e.expected);
    expect(bySuite(contract, e), "conformance").toEqual(expected);
    expect(byProxy(contract, e), "proxy").toEqual(expected);
    if (!e.notSeenBy?.fuzz) expect(byFuzzer(contract, e), "fuzz").toEqual(expected);
    const replayed = byReplay(index);
    if (Array.isArray(replayed)) expect(replayed, "replay").toEqual(expected);
    else expect(replayed.skipped, "replay").toMatch(/^(mock-state|not-replayed|request-refused): /);
  });
});

describe("every judge gives the same verdict on every exchange of the live corpus, judged by the live document", () => {
  it("holds a clean exchange of each operation the live version adds", () => {
    const added = live.contractOperations
      .filter((o) => !contract.findOperation(o.operationId))
      .map((o) => o.operationId);
    const clean = liveCorpus
      .filter((e) => e.expected.length === 0)
      .map((e) => operationFor(live, e.request.method, e.request.path));
    expect([...new Set(clean)].sort()).toEqual(added.sort());
  });

  it.each(liveCorpus.map((e, i) => [e.name, e, i] as const))("%s", (_name, e, index) => {
    const expected = verdict(e.expected);
    expect(bySuite(live, e), "conformance").toEqual(expected);
    expect(byProxy(live, e), "proxy").toEqual(expected);
    if (!e.notSeenBy?.fuzz) expect(byFuzzer(live, e), "fuzz").toEqual(expected);
    const replayed = byReplay(index, liveMock);
    if (Array.isArray(replayed)) expect(replayed, "replay").toEqual(expected);
    else expect(replayed.skipped, "replay").toMatch(/^(mock-state|not-replayed|request-refused): /);
  });
});
