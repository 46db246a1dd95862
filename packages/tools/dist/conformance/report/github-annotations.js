import { unmetLines } from "../skip-reasons.js";
export function conformanceAnnotations(r) {
    if (r.exitCode === 2)
        return [{ level: "error", title: "plumbline conform could not run", message: r.error ?? "" }];
    const out = [];
    for (const c of r.checks) {
        if (c.status !== "failed" && c.status !== "warning")
            continue;
        const first = c.failures[0];
        const found = first
            ? `${first.message}${first.expected !== undefined ? ` (expected ${first.expected}, got ${first.actual ?? "?"})` : ""}`
            : (c.reason ?? "");
        const more = c.failures.length > 1 ? ` (and ${c.failures.length - 1} more in the report)` : "";
        out.push({
            level: c.status === "failed" ? "error" : "warning",
            title: `conform ${c.id} (${c.section})`,
            message: `${c.title}: ${found}${more}`,
        });
    }
    for (const line of unmetLines(r.skips ?? []))
        out.push({ level: "error", title: "conform: checks skipped", message: line });
    return out;
}
