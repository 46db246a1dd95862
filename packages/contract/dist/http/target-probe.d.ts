import { type HttpAnswer, type HttpClient } from "./client.ts";
export type TargetProbe = {
    ok: true;
    /** the health body (`status`, and `version` when the target states it) */
    health: {
        status: string;
        version?: string;
        [k: string]: unknown;
    };
    headers: Record<string, string | string[] | undefined>;
} | {
    ok: false;
    /** down: nothing answered HTTP; not-api: something answered, but not as this API's /health does */
    kind: "down" | "not-api";
    /** one line naming the cause and what to do */
    message: string;
};
/**
 * One line for a request that got no HTTP answer: what was tried, the cause in words, what to do. `code` is the
 * system's error code (ECONNREFUSED, …) when there is one; `detail` the failure's own message otherwise.
 */
export declare function unreachableLine(target: string, failure: {
    kind?: string;
    code?: string;
    message?: string;
}): string;
/** Judges the answer to GET /health: the probe's verdict. */
export declare function judgeHealth(target: string, answer: HttpAnswer): TargetProbe;
/**
 * GET /health on the target, judged. Uses `client` when given (its keep-alive sockets), else a client of its own.
 */
export declare function probeTarget(target: string, o?: {
    timeoutMs?: number;
    client?: HttpClient;
}): Promise<TargetProbe>;
