// The gate's load rate (issue 37): planned over the stage's share of the box, so a slow machine, whose earlier
// stages left less time, gets the same rate for a shorter run instead of a faster one.
import { describe, expect, it } from "vitest";
import { plannedLoadRate } from "../load-price.ts";

describe("the gate's planned load rate", () => {
  it("spreads the credits left over the seconds left when the stage has its share of the box or more", () => {
    // a 120 s box with 40 s left: 400 credits at 1 credit a request, 10 arrivals a second
    expect(plannedLoadRate({ budget: 400, perRequest: 1, stageSeconds: 40, boxSeconds: 120 })).toBe(10);
    expect(plannedLoadRate({ budget: 100, perRequest: 2, stageSeconds: 10, boxSeconds: 20 })).toBe(5);
  });

  it("is no faster when earlier stages took longer: 3 s left of a 20 s box plans over 5 s, spending less", () => {
    const onTime = plannedLoadRate({ budget: 70, perRequest: 1, stageSeconds: 5, boxSeconds: 20 });
    const late = plannedLoadRate({ budget: 70, perRequest: 1, stageSeconds: 3, boxSeconds: 20 });
    expect(late).toBe(onTime);
    expect(late).toBe(14);
    // the credits a late run spends: the same rate over its 3 s
    expect(late * 3).toBeLessThan(70);
  });

  it("plans over a minute at most, however long the box", () => {
    expect(plannedLoadRate({ budget: 600, perRequest: 1, stageSeconds: 2, boxSeconds: 600 })).toBe(10);
  });
});
