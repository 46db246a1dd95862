// validation-status on a body the server refused by its size (D-validation-status): a batch too long for the
// contract and too big for the server may be answered either way, 422 naming the batch or 400 PLB_BODY_TOO_LARGE
// before it is read; a small one must get its 422.
import { beforeAll, describe, expect, it } from "vitest";
import type { Contract } from "../contract.ts";
import { REQUEST_BODY_LIMIT_BYTES } from "../error-catalogue.ts";
import { loadContract } from "../index.ts";
import { judgeExchange } from "./registry.ts";
import type { Exchange } from "./types.ts";

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

const json = { "content-type": "application/json" };
const tooLarge = {
  ok: false,
  error: "Bad Request",
  message: "The request body is too large",
  code: "PLB_BODY_TOO_LARGE",
};

function batchOf51(queryLength: number, status: number, answer: unknown): Exchange {
  const body = JSON.stringify(Array.from({ length: 51 }, () => ({ query: "q".repeat(queryLength) })));
  return {
    request: { method: "POST", path: "/news", headers: { authorization: "Bearer k", ...json }, body },
    response: { status, headers: json, body: JSON.stringify(answer) },
  };
}
const rules = (e: Exchange) => judgeExchange(contract, e, { rules: ["validation-status"] }).map((v) => v.message);

describe("validation-status and the size cap (D-validation-status)", () => {
  it("accepts 400 PLB_BODY_TOO_LARGE for a body over 1 MiB, whatever else it breaks", () => {
    const big = Math.ceil(REQUEST_BODY_LIMIT_BYTES / 51) + 10;
    expect(rules(batchOf51(big, 400, tooLarge))).toEqual([]);
  });

  it("still wants the 422 for a body under the cap, even if the answer claims it was too large", () => {
    expect(rules(batchOf51(10, 400, tooLarge))).toEqual([
      "400 where the contract says 422 (request-schema: body must NOT have more than 50 items)",
    ]);
  });
});
