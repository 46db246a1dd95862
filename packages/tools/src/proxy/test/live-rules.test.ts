// The proxy under --contract live (issue 39) judges /ask and /feedback passively: a client's short journey (a balance
// read, an /ask with one engine made to fail, a read, a report, a read) through the proxy in front of the mock
// serving the live contract leaves no response-side violation, and the seeded faults that the traffic shows are
// named: a result below 0.5 and results not best first in the one answer (ask-results-ranked), an uncharged call
// across two reads (balance-charged), a report echoed (feedback-no-echo). What passive traffic cannot show is said:
// an engine left out of errors (the proxy does not know it failed), a 201 while the store failed (it does not see
// the store). Eleven reports in a row through the mock with its limits on a manual clock: the eleventh accepted is
// named (feedback-rate-window), the eleventh refused is not.
import { loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fault, jsonOf, startFaultProxy, withJson } from "../../conformance/test/fault-proxy.ts";
import { liveFaultVariants } from "../../conformance/test/live-fault-variants.ts";
import { startProxy } from "../start-proxy.ts";
import { startNextWindow } from "./live-catch-journey.ts";

const KEY = "plb_live_proxy_key";
let mock: RunningMock;
/** the mock with its rate limits on a manual clock: a window ends only when the test says so */
let limited: RunningMock;
beforeAll(async () => {
  const contract = await loadContract({ version: "live" });
  mock = await startMock({ port: 0, contract, keys: [{ key: KEY, credits: 1000 }], rateLimits: { perAccount: 0 } });
  limited = await startMock({ port: 0, contract, keys: [{ key: KEY, credits: 1000 }], clock: "manual" });
});
afterAll(async () => {
  await Promise.all([mock?.close(), limited?.close()]);
});

/** The response-side rules the proxy reports for the journey through `fault` (none: the clean mock). */
async function journey(fault: Fault): Promise<string[]> {
  const faulty = await startFaultProxy(mock.url, fault);
  const proxy = await startProxy({ upstream: faulty.url, port: 0, reportDir: null, contractVersion: "live" });
  try {
    const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
      const r = await fetch(`${proxy.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...extra,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await r.arrayBuffer();
      return r.status;
    };
    expect(await call("GET", "/usage")).toBe(200);
    const ask = { query: "vector search papers on github this week" };
    expect(await call("POST", "/ask", ask, { prefer: 'fail-engines="arxiv"' })).toBe(200);
    expect(await call("GET", "/usage")).toBe(200);
    const report = { message: "Sitemap returned no links for a site whose robots.txt names two sitemaps." };
    expect(await call("POST", "/feedback", report)).toBe(201);
    expect(await call("GET", "/usage")).toBe(200);
    const r = proxy.report();
    return [...new Set(r.operations.flatMap((op) => op.rules.map((g) => g.rule)))]
      .filter((rule) => !rule.startsWith("request-"))
      .sort();
  } finally {
    await proxy.close();
    await faulty.close();
  }
}

const variant = (name: string) => {
  const v = liveFaultVariants().find((x) => x.name === name);
  if (!v) throw new Error(`no live fault variant "${name}"`);
  return v;
};

/** The response-side rules the proxy reports for `reports` reports in a row through `fault`. */
async function reports(fault: Fault, count: number): Promise<{ rules: string[]; statuses: number[] }> {
  const faulty = await startFaultProxy(limited.url, fault);
  const proxy = await startProxy({ upstream: faulty.url, port: 0, reportDir: null, contractVersion: "live" });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const r = await fetch(`${proxy.url}/feedback`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ message: `report ${i + 1} of a burst` }),
      });
      await r.arrayBuffer();
      statuses.push(r.status);
    }
    const rules = [...new Set(proxy.report().operations.flatMap((op) => op.rules.map((g) => g.rule)))].sort();
    return { rules, statuses };
  } finally {
    await proxy.close();
    await faulty.close();
  }
}

describe("the proxy under --contract live, in front of the live mock", () => {
  it("finds nothing in a clean journey through /ask and /feedback", async () => {
    expect(await journey({})).toEqual([]);
  });

  it("names the faults one answer shows, and an uncharged call across two balance reads", async () => {
    expect(await journey(variant("an /ask result of relevance below 0.5 returned").fault)).toEqual([
      "ask-results-ranked",
      // the schema's minimum of relevance says so too
      "response-schema",
    ]);
    expect(await journey(variant("/ask results not best first").fault)).toEqual(["ask-results-ranked"]);
    expect(await journey(variant("an /ask call not charged").fault)).toEqual(["balance-charged"]);
    const echoed: Fault = {
      rewrite: (req, res) =>
        req.path === "/feedback" && res.status === 201
          ? withJson(res, { ...(jsonOf(res) as object), message: JSON.parse(req.body.toString()).message })
          : res,
    };
    // the schema refuses the extra member as well
    expect(await journey(echoed)).toEqual(["feedback-no-echo", "response-schema"]);
  });

  it("names the eleventh report of a window accepted (feedback-rate-window), and finds nothing when it is refused", async () => {
    await startNextWindow(limited.url);
    const clean = await reports({}, 11);
    expect(clean.statuses).toEqual([...Array(10).fill(201), 429]);
    expect(clean.rules).toEqual([]);
    // the next window: the manual clock set to its start, past the one the reports used up
    await startNextWindow(limited.url);
    const faulty = await reports(variant("the eleventh report within a minute accepted").fault, 11);
    expect(faulty.statuses).toEqual(Array(11).fill(201));
    expect(faulty.rules).toEqual(["feedback-rate-window"]);
  });

  it("cannot see, passively, what only the service knows (which engine failed, whether its store kept a report)", async () => {
    for (const name of [
      "an /ask engine that failed left out of errors",
      "a report answered 201 while its store failed",
    ])
      expect(await journey(variant(name).fault), name).toEqual([]);
  });
});
