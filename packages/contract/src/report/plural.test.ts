import { describe, expect, it } from "vitest";
import { noun, plural, wasWere } from "./plural.ts";

describe("plural", () => {
  it("agrees with its count", () => {
    expect([plural(0, "violation"), plural(1, "violation"), plural(2, "violation")]).toEqual([
      "0 violations",
      "1 violation",
      "2 violations",
    ]);
    expect([plural(1, "entry", "entries"), plural(3, "entry", "entries")]).toEqual(["1 entry", "3 entries"]);
    expect([noun(1, "threshold"), noun(2, "threshold"), wasWere(1), wasWere(2)]).toEqual([
      "threshold",
      "thresholds",
      "was",
      "were",
    ]);
  });
});
