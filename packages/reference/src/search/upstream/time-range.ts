// time_range (interface-spec "Search parameters") as the instant it starts at, on the reference's clock.
import type { TimeRange } from "./upstream.ts";

const DAY = 86_400_000;
const SPAN: Record<TimeRange, number> = { day: DAY, week: 7 * DAY, month: 31 * DAY, year: 366 * DAY };

export function timeRangeStart(range: string | undefined, nowMs: number): Date | null {
  if (!range || !(range in SPAN)) return null;
  return new Date(nowMs - SPAN[range as TimeRange]);
}
