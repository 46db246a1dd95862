// Whether the target is plumbline's mock, whose steering lets a client provoke what a real target does only on its
// own terms: an engine of /ask that fails (`Prefer: fail-engines=…`), a feedback store that fails (`PUT
// /__mock/feedback/failures`), the reports kept (`GET /__mock/feedback`). Read once from `GET /__mock`, the admin
// API's index (mock/README.md "Admin API"), as the fuzzer does; any other target answers it 404 and the checks that
// need steering judge what they can without it. Free: the admin API is not the contract's.
import { json, status } from "../check-helpers.ts";
import type { Probe } from "../types.ts";

export interface MockSteering {
  /** the target lists the mock's admin API */
  admin: boolean;
  /** `Prefer: fail-engines="…"` makes those /ask engines fail (the mock's steering of /ask) */
  failEngines: boolean;
  /** `PUT /__mock/feedback/failures {"times": N}` makes the next N reports fail to be stored */
  feedbackFailures: boolean;
  /** `GET /__mock/feedback` lists the reports kept */
  feedbackList: boolean;
}

export const mockSteeringProbe: Probe<MockSteering> = {
  id: "mock-steering",
  cost: () => 0,
  async run(ctx) {
    const ex = await ctx.http.call("probe:mock-steering", "GET", "/__mock", { auth: "none" });
    const endpoints = json<{ endpoints?: unknown }>(ex)?.endpoints;
    const listed = status(ex) === 200 && Array.isArray(endpoints) ? endpoints.map(String) : [];
    const admin = listed.length > 0;
    return {
      admin,
      // the Prefer steering has no index entry of its own: a target serving the mock's admin API is the mock
      failEngines: admin,
      feedbackFailures: listed.includes("PUT /__mock/feedback/failures"),
      feedbackList: listed.some((e) => /^GET(\|[A-Z]+)* \/__mock\/feedback$/.test(e)),
    };
  },
};
