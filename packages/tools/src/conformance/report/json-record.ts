// The JSON record of a run: the typed result, with in-memory-only members (raw bodies, sent values) left out, and
// its checks as the one report record every client writes (`records`; contract/src/report/check-record.ts).
import type { ConformanceResult, Exchange } from "../types.ts";
import { checkRecords } from "./check-records.ts";

export type RecordedExchange = Omit<Exchange, "raw" | "sent">;

export function jsonRecord(result: ConformanceResult): string {
  const exchanges: RecordedExchange[] = result.exchanges.map(({ raw: _raw, sent: _sent, ...rest }) => rest);
  return `${JSON.stringify({ ...result, records: checkRecords(result), exchanges }, null, 2)}\n`;
}
