// Rate-limit windows in the database (interface-spec "Limits" 4; D-rate-limits), so that several instances
// behind one balancer count an account's requests together, as they already share its credits. One upsert per
// hit, atomic in both dialects: a new window restarts the count, the current one increments it.

import type { RateLimitStore } from "@plumbline-kit/platform/stores";
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.ts";

export function createSqlRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async hit(key, windowMs, nowMs) {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const row = await db
        .insertInto("rate_limit_windows")
        .values({ key, window_start: start, count: 1 })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            // both dialects read the existing row's columns here, so the order of the two assignments is moot;
            // an instance whose clock lags a window behind joins the newer window rather than resetting it
            count: sql<number>`case when rate_limit_windows.window_start >= excluded.window_start then rate_limit_windows.count + 1 else 1 end`,
            window_start: sql<number>`case when rate_limit_windows.window_start > excluded.window_start then rate_limit_windows.window_start else excluded.window_start end`,
          }),
        )
        .returning(["count", "window_start"])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), resetAtMs: Number(row.window_start) + windowMs };
    },
  };
}
