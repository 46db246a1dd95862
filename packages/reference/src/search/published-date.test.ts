// D-result-fields: `published_date` is YYYY-MM-DD when the source gives the day alone, YYYY-MM-DDTHH:MM:SSZ (UTC)
// when it gives a time, and a date no one can read is never made up. The upstreams' dates (isoOrNull) keep a day
// alone as a day; `date`, the full ISO string the reference always sent, is derived from the same value.
import { describe, expect, it } from "vitest";
import { publishedDate } from "./search-engine.ts";
import { isDayOnly, isoOrNull } from "./upstream/upstream.ts";

describe("published_date's two precisions", () => {
  it("keeps a day alone as a day, a time as its UTC date-time to the second", () => {
    expect(publishedDate("2026-11-20")).toBe("2026-11-20");
    expect(publishedDate("2026-11-21T08:30:00.250+02:00")).toBe("2026-11-21T06:30:00Z");
    expect(publishedDate("2026-11-21T06:30:00.000Z")).toBe("2026-11-21T06:30:00Z");
  });

  it("reads an upstream's day alone as a day, a timestamp or a time as a date-time, nonsense as none", () => {
    expect(isoOrNull("2025-06-02")).toBe("2025-06-02");
    expect(isoOrNull(" 2025-06-02 ")).toBe("2025-06-02");
    expect(isoOrNull("2025-06-02T10:00:00Z")).toBe("2025-06-02T10:00:00.000Z");
    expect(isoOrNull(1_700_000_000)).toBe("2023-11-14T22:13:20.000Z");
    expect(isoOrNull("2025-13-45")).toBeNull();
    expect(isoOrNull("yesterday")).toBeNull();
  });

  it("takes only a real calendar day for a day alone", () => {
    expect(isDayOnly("2024-02-29")).toBe(true);
    expect(isDayOnly("2025-02-29")).toBe(false);
    expect(isDayOnly("2025-13-01")).toBe(false);
    expect(isDayOnly("2025-06-02T00:00:00Z")).toBe(false);
  });
});
