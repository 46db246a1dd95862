import type { Contract } from "@plumbline-kit/contract";
import type { Exchange } from "../exchange.ts";
import type { Violation } from "../judge/exchange-judge.ts";
export interface ExchangeLogRecord {
    time: string;
    id: number;
    method: string;
    path: string;
    status: number | null;
    ms: number;
    operationId: string | null;
    servedBy: Exchange["servedBy"];
    /**
     * credits the call costs by the price table when it succeeded (the upstream's ledger is its own: a batch's failed
     * entries are free, so a batch is at most this); 0 otherwise
     */
    credits: number;
    batch: boolean;
    violations: Array<{
        rule: string;
        message: string;
    }>;
    error?: string;
}
export declare function exchangeRecord(contract: Contract, ex: Exchange, violations: Violation[]): ExchangeLogRecord;
/** `09:41:07 POST /search 200 31.2 ms 1 credit ✓ search` or `… ✗ 2 violations: response-schema, status-listed`. */
export declare function exchangeLine(r: ExchangeLogRecord, color?: boolean): string;
