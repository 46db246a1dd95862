// {{fixture}} and setup captures: filled into bodies, raw bodies, queries and path parameters before the contract
// checks the request, so the body judged is the body sent; an unset name is a scenario error, never sent as is.

import { loadContract } from "@plumbline-kit/contract";
import { describe, expect, it } from "vitest";
import { buildTemplate } from "../request-plan.ts";
import { readScenario } from "../scenario-file.ts";
import { fillVars, fixtureBase, needsFixture } from "../scenario-vars.ts";

const contract = await loadContract();
const vars = { fixture: "http://127.0.0.1:4020" };

describe("scenario placeholders", () => {
  it("fills every string of a nested value, keys and other types untouched", () => {
    const r = fillVars({ a: ["{{fixture}}/x", { "{{fixture}}": 1, b: "{{fixture}}{{fixture}}" }], n: 2 }, vars);
    expect(r).toEqual({
      ok: true,
      value: {
        a: ["http://127.0.0.1:4020/x", { "{{fixture}}": 1, b: "http://127.0.0.1:4020http://127.0.0.1:4020" }],
        n: 2,
      },
    });
    expect(fillVars({ p: "{{taskId}}" }, {})).toEqual({
      ok: false,
      error: "{{taskId}} not set (no setup step captures it)",
    });
  });

  it("builds a crawl batch on the fixture site, priced and validated after filling", () => {
    const body = [{ url: "{{fixture}}/article.html" }, { url: "{{fixture}}/docs/one.html", enableFallback: false }];
    const r = buildTemplate({ operation: "crawl", body }, 0, contract, { apiKey: "k", vars });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(JSON.parse(String(r.template.body))).toEqual([
      { url: "http://127.0.0.1:4020/article.html" },
      { url: "http://127.0.0.1:4020/docs/one.html", enableFallback: false },
    ]);
    expect(r.template).toMatchObject({ batch: true, maxCredits: 2, invalid: false });
    // the contract judges the filled body: a fixture value that makes no URL is refused before any traffic
    const bad = buildTemplate({ operation: "crawl", body: { url: "{{fixture}}" } }, 0, contract, {
      apiKey: "k",
      vars: { fixture: "nowhere" },
    });
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/^crawl: body refused by the contract/) });
    const unset = buildTemplate({ operation: "sitemap", body: { url: "{{fixture}}/" } }, 0, contract, { apiKey: "k" });
    expect(unset).toMatchObject({ ok: false, error: expect.stringMatching(/^sitemap: \{\{fixture\}\} is not set/) });
  });

  it("normalises --fixture-url and knows which scenarios need it", () => {
    expect(fixtureBase("http://127.0.0.1:4020/")).toEqual({ ok: true, value: "http://127.0.0.1:4020" });
    expect(fixtureBase("http://127.0.0.1:4020/site//")).toEqual({ ok: true, value: "http://127.0.0.1:4020/site" });
    const reference = readScenario("reference");
    const mixed = readScenario("mixed");
    expect(reference.ok && needsFixture(reference.scenario)).toBe(true);
    expect(mixed.ok && needsFixture(mixed.scenario)).toBe(false);
  });
});
