export interface ChromiumExecutable {
    executablePath: string;
    /** the environment to launch it with (the embedded build's libraries and fonts); undefined: the caller's own */
    env?: Record<string, string>;
    /** "given" (a path from the caller or PLUMBLINE_CHROMIUM) or "embedded" (@sparticuz/chromium) */
    source: "given" | "embedded";
}
/**
 * The Chromium to launch: `given`, else PLUMBLINE_CHROMIUM, else the embedded build (unpacked on first use, ~2 s).
 * Rejects with a message naming `--chromium`/PLUMBLINE_CHROMIUM when the embedded build cannot run here.
 */
export declare function resolveChromium(given?: string): Promise<ChromiumExecutable>;
