import { type CommandUnknownOpts } from "./command-kit.js";
/** The argument every wrapping command declares, and its help. */
export declare const WRAPPED_ARGUMENT = "[command...]";
export declare const WRAPPED_USAGE = "[options] [-- command ...]";
export declare const wrappedArgumentHelp: (what: string) => string;
/**
 * The command given after `--`, or undefined when there is none. Words before `--` that commander took as operands
 * are refused (a typo of an option would otherwise run as a program).
 */
export declare function wrappedCommand(cmd: CommandUnknownOpts, operands: string[]): string[] | undefined;
/** What a wrapped command finds in its environment. Unset values are left as the caller's environment has them. */
export type WrappedEnv = Record<string, string | undefined>;
/**
 * The variables naming a server's address and key: plumbline's own (conform, gate, fuzz and load read
 * PLUMBLINE_API_KEY, PLUMBLINE_BROKE_API_KEY and PLUMBLINE_PAYMENT_KEY for their flags) and those the service's
 * official clients read (the TypeScript and Python SDKs SEARCH1API_API_KEY, its CLI and MCP server
 * SEARCH1API_KEY; they take the base URL only as an option, so pass them $PLUMBLINE_URL).
 */
export declare function serverEnv(o: {
    url: string;
    apiKey?: string;
    brokeApiKey?: string;
    paymentKey?: string;
}): WrappedEnv;
/** The key a wrapped command gets among the server's accounts: the first with credits, and the first broke one. */
export declare function pickKeys(keys: ReadonlyArray<{
    key: string;
    credits: number;
}>): {
    apiKey?: string;
    brokeApiKey?: string;
};
/**
 * Runs `argv` (no shell: the words as given) with `env` added to this process's environment, passing signals on as
 * described above; resolves with its exit code once it has ended. A command that cannot start (not found, not
 * executable) is reported and resolves 127 or 126, as a shell would.
 */
export declare function runWrapped(argv: string[], env: WrappedEnv, label: string): Promise<number>;
