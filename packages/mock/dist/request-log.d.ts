import type { AccountStore } from "@plumbline-kit/platform/stores";
import type { FastifyInstance } from "fastify";
export interface LoggedRequest {
    at: Date;
    method: string;
    /** the URL's path and query, secrets redacted */
    url: string;
    operationId: string | null;
    status: number;
    ms: number;
    /** credits taken from the caller's balance (0 for a free or refused call) */
    credits: number;
    /** paid with the Payment scheme instead: the amount and currency captured */
    paid?: string;
    /** the error's code and message when the answer is an error */
    error?: {
        code: string;
        message: string;
    };
}
/** Wraps an account store so each settled hold is counted for its request (read once, by `take`). */
export declare function countingAccounts(store: AccountStore): {
    store: AccountStore;
    take(requestId: string): number;
};
/** Installs the hooks that hand each finished request (the admin API's too) to `write`. */
export declare function installRequestLog(app: FastifyInstance, credits: (requestId: string) => number, write: (entry: LoggedRequest) => void): void;
/**
 * One readable line: `09:41:07 POST /search 200 3.1 ms 1 credit ✓ search` or, for a refusal,
 * `… 422 0.9 ms ✗ PLB_VALIDATION_FAILED: query is required`. Colours only on a terminal.
 */
export declare function prettyLine(e: LoggedRequest, color?: boolean): string;
