// The refusals derived from the schemas (issue 35): nothing listed by hand, so every operation with a closed request
// object gets its siblings' fields, every type its properties do not admit, and the contract refuses each of them
// naming the field and keyword the suite then expects the target to name.

import type { Contract } from "@plumbline-kit/contract";
import { objectBranch } from "@plumbline-kit/contract/bounds";
import { schemaTypes } from "@plumbline-kit/contract/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import { FULL_SCOPE, makeScope } from "../operation-scope.ts";
import { boundRequests } from "../probes/bound-cases.ts";
import { malformedCases } from "../probes/malformed-bodies.ts";
import { type RefusalCase, schemaRefusals } from "../probes/schema-refusals.ts";
import { loadContracts } from "../run-conformance.ts";

let contract: Contract;
let alt: Contract;
let cases: RefusalCase[];
beforeAll(async () => {
  ({ contract, altContract: alt } = await loadContracts());
  cases = schemaRefusals(contract);
});

const find = (op: string, field: string, keyword = "additionalProperties") =>
  cases.find((c) => c.operationId === op && c.field === field && c.keyword === keyword);

describe("schemaRefusals", () => {
  it("sends a sibling's fields apart, with a value valid where they belong: page on news, enableFallback on sitemap, format on crawl", () => {
    expect(find("news", "/page")).toMatchObject({
      apart: "siblings",
      body: expect.objectContaining({ page: 1 }),
    });
    expect(find("sitemap", "/enableFallback")).toMatchObject({ apart: "siblings" });
    expect(find("crawl", "/format")).toMatchObject({
      apart: "siblings",
      body: expect.objectContaining({ format: "png" }),
    });
    // search shares nothing with screenshot: its fields are packed with the rest
    expect(find("search", "/format")?.apart).toBeUndefined();
    // the value is one search itself accepts: only the operation it is sent to makes it wrong
    const page = (find("news", "/page")?.body as { page?: unknown } | undefined)?.page;
    expect(contract.validators.checkBody("search", { query: "q", page }).ok).toBe(true);
  });

  it("gives every property of every closed request object every JSON type it does not admit", () => {
    for (const op of contract.contractOperations) {
      const schema = objectBranch(op);
      if (schema?.additionalProperties !== false) continue;
      for (const [name, sub] of Object.entries(schema.properties ?? {})) {
        const types = schemaTypes(sub);
        const wrong = cases.filter(
          (c) => c.operationId === op.operationId && c.field === `/${name}` && c.keyword === "type",
        );
        if (!types.includes("null"))
          expect(
            wrong.some((c) => (c.body as Record<string, unknown>)[name] === null),
            `${op.operationId} /${name}`,
          ).toBe(true);
        if (!types.includes("boolean"))
          expect(
            wrong.some((c) => (c.body as Record<string, unknown>)[name] === true),
            `${op.operationId} /${name}`,
          ).toBe(true);
      }
    }
    expect(find("news", "/max_results", "type")?.body).toMatchObject({ max_results: "1" });
  });

  it("keeps only what the contract refuses, naming the case's field and keyword", () => {
    expect(cases.length).toBeGreaterThan(300);
    for (const c of cases) {
      const r = contract.validators.checkBody(c.operationId, c.body);
      expect(r.ok, c.label).toBe(false);
      const errors = "errors" in r ? r.errors : [];
      expect(
        errors.some((e) => e.field === c.field && e.code === c.keyword),
        c.label,
      ).toBe(true);
    }
  });

  it("sends each sibling's fields in a request of their own, free: the bound probe costs what it did", () => {
    const requests = boundRequests(contract, alt, FULL_SCOPE);
    const page = requests.filter(
      (r) =>
        r.kind === "rejected" && r.group.members.some((m) => m.case.field === "/page" && m.case.operationId === "news"),
    );
    expect(page).toHaveLength(1);
    expect(page[0].group.members.map((m) => m.case.field)).toEqual(["/page"]);
  });

  it("adds no request to an operation with a window of its own (/screenshot: 10 a minute)", () => {
    const leftOut = new Map<string, number>();
    const rejected = boundRequests(contract, alt, FULL_SCOPE, new Set(), leftOut).filter(
      (r) => r.kind === "rejected" && r.operationId === "screenshot",
    );
    const derivedOnly = rejected.filter((r) => r.group.members.every((m) => (m.case as RefusalCase).derived));
    expect(derivedOnly).toEqual([]);
    expect(leftOut.get("screenshot")).toBeGreaterThan(0);
    expect([...leftOut.keys()]).toEqual(["screenshot"]);
    // the derived cases still ride in the requests spec/bounds.ts's cases need
    expect(
      rejected.some((r) =>
        r.group.members.some((m) => (m.case as RefusalCase).derived && !m.case.label.includes("a field of")),
      ),
    ).toBe(true);
  });
});

describe("malformedCases", () => {
  it("meets every operation taking a body (but /screenshot, with a window of its own) and every kind of malformed body, in max(kinds, operations) requests", () => {
    const all = malformedCases(contract, FULL_SCOPE);
    const withBody = contract.contractOperations
      .filter((o) => o.requestSchema && o.operationId !== "screenshot")
      .map((o) => o.path);
    expect(new Set(all.filter((c) => c.method === "POST").map((c) => c.path))).toEqual(new Set(withBody));
    for (const kind of ["malformed JSON", "a text/plain content type", "a JSON null body", "an empty array"])
      expect(
        all.some((c) => c.label.startsWith(kind)),
        kind,
      ).toBe(true);
    expect(all.filter((c) => c.method === "POST")).toHaveLength(Math.max(7, withBody.length));
    expect(all.filter((c) => c.method === "GET").map((c) => c.path)).toEqual(["/usage?period=__plumbline_unknown__"]);
  });

  it("keeps to the operations in scope", () => {
    const s = makeScope(contract, ["sitemap"]);
    if (!s.ok) throw new Error(s.error);
    const posted = malformedCases(contract, s.scope).filter((c) => c.method === "POST");
    expect(new Set(posted.map((c) => c.path))).toEqual(new Set(["/sitemap"]));
    expect(posted).toHaveLength(7);
  });
});
