import { beforeAll, describe, expect, it } from "vitest";
import {
  type Contract,
  ERROR_CATALOGUE,
  type ErrorCode,
  fieldPath,
  loadContract,
  STATUS_LABELS,
  serializeError,
} from "./index.ts";

let c: Contract;
beforeAll(async () => {
  c = await loadContract();
});

describe("the error catalogue and serializer", () => {
  it("serializes every catalogue entry in the contract's error shape", () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const e = serializeError(code);
      expect(e.status).toBe(ERROR_CATALOGUE[code].status);
      expect(e.body).toMatchObject({
        ok: false,
        error: STATUS_LABELS[e.status],
        message: ERROR_CATALOGUE[code].message,
        code,
      });
      // valid for any operation that lists the status
      const op = c.contractOperations.find((o) => o.responses.has(e.status) && o.operationId !== "deepcrawlStatus");
      if (op) expect(c.validators.checkResponse(op.operationId, e.status, e.contentType, e.body), code).toBeNull();
    }
  });

  it("names the first violation and counts the rest in the message of an error with errors[] (D-validation-message)", () => {
    const check = (body: unknown, op = "search") => {
      const r = c.validators.checkBody(op, body);
      if (r.ok || r.kind !== "schema") throw new Error("expected a schema violation");
      return serializeError("PLB_VALIDATION_FAILED", { errors: r.errors }).body;
    };
    expect(check({ query: "x", max_results: 51, crawl_results: 51 }).message).toBe(
      "max_results must be ≤ 50 (and 1 more)",
    );
    expect(check({ query: "x", max_results: 0 }).message).toBe("max_results must be ≥ 1");
    expect(check([{ query: "a" }, {}]).message).toBe("[1].query is required");
    expect(check({ url: "https://example.com/", viewport: { width: 1 } }, "screenshot").message).toBe(
      "viewport.width must be ≥ 320",
    );
    // errors[] keeps every violation with its JSON Pointer (D-error-codes)
    expect(check({ query: "x", max_results: 51, crawl_results: 51 }).errors?.map((e) => e.field)).toEqual([
      "/max_results",
      "/crawl_results",
    ]);
    // an explicit message still wins; without errors[] the catalogue's message stays
    expect(serializeError("PLB_BAD_PARAMETER", { message: "m", errors: [] }).body.message).toBe("m");
    expect(serializeError("PLB_BAD_PARAMETER", { errors: [] }).body.message).toBe(
      ERROR_CATALOGUE.PLB_BAD_PARAMETER.message,
    );
    expect(["", "/query/period", "/a~1b/0"].map(fieldPath)).toEqual(["body", "query.period", "a/b[0]"]);
  });

  it("uses only statuses some operation lists (of the seed, or of the live version: 413 and 415 of /feedback)", async () => {
    const live = await loadContract({ version: "live" });
    const listed = new Set([...c.contractOperations, ...live.contractOperations].flatMap((o) => o.statuses));
    for (const [code, e] of Object.entries(ERROR_CATALOGUE)) expect(listed.has(e.status), code).toBe(true);
  });

  it("makes 402 an RFC 9457 problem (D-payment-challenge)", () => {
    const e = serializeError("PLB_INSUFFICIENT_CREDITS", {
      message: "costs 10, balance 3",
      extra: { challengeId: "ch_1" },
    });
    expect(e.contentType).toBe("application/problem+json");
    expect(e.body).toMatchObject({
      type: "https://paymentauth.org/problems/payment-required",
      title: "Payment Required",
      status: 402,
      detail: "costs 10, balance 3",
      message: "costs 10, balance 3",
      challengeId: "ch_1",
      ok: false,
    });
  });

  it("carries errors[] for validation failures and keeps its own members over extras", () => {
    const e = serializeError("PLB_VALIDATION_FAILED", {
      errors: [{ field: "/max_results", message: "/max_results must be <= 50", code: "maximum" }],
      extra: { ok: true, code: "X" },
    });
    expect(e.body.ok).toBe(false);
    expect(e.body.code).toBe("PLB_VALIDATION_FAILED");
    expect(e.body.errors).toHaveLength(1);
    expect(c.validators.checkResponse("search", 422, "application/json", e.body)).toBeNull();
  });
});
