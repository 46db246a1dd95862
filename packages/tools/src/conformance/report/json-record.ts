// The JSON record of a run: the typed result, with in-memory-only members (raw bodies, sent values) left out.
import type { ConformanceResult, Exchange } from "../types.ts";

export type RecordedExchange = Omit<Exchange, "raw" | "sent">;

export function jsonRecord(result: ConformanceResult): string {
  const exchanges: RecordedExchange[] = result.exchanges.map(({ raw: _raw, sent: _sent, ...rest }) => rest);
  return `${JSON.stringify({ ...result, exchanges }, null, 2)}\n`;
}
