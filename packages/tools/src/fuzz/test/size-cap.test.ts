// A body over the server's size cap is refused before validation (PLB_BODY_TOO_LARGE): the fuzzer judges that as a
// refusal when the body is large (a 50-entry batch of escaped control characters passes a megabyte), and as a
// finding when a small body is refused that way.
import { describe, expect, it } from "vitest";
import { refusedBySizeCap, SIZE_CAP_FLOOR_BYTES } from "../checks/size-cap.ts";

const answer = (status: number, code: string) => ({ ok: true as const, status, json: { code }, headers: {}, ms: 1 });
const big = {
  method: "POST" as const,
  path: "/search",
  body: [{ query: "\u0000".repeat(SIZE_CAP_FLOOR_BYTES / 6 + 1) }],
};
const small = { method: "POST" as const, path: "/search", body: [{ query: "a" }] };

describe("refusedBySizeCap", () => {
  it("takes a large body's PLB_BODY_TOO_LARGE for the server's cap", () => {
    expect(refusedBySizeCap(big, answer(400, "PLB_BODY_TOO_LARGE") as never)).toBe(true);
  });
  it("leaves a small body refused as too large, and any other answer, to the judges", () => {
    expect(refusedBySizeCap(small, answer(400, "PLB_BODY_TOO_LARGE") as never)).toBe(false);
    expect(refusedBySizeCap(big, answer(400, "PLB_BODY_SHAPE") as never)).toBe(false);
    expect(refusedBySizeCap(big, answer(422, "PLB_BODY_TOO_LARGE") as never)).toBe(false);
  });
});
