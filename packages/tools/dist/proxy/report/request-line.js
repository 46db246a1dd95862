import { plural } from "@plumbline-kit/contract/report/plural";
import { redactUrl } from "@plumbline-kit/contract/secrets";
export function exchangeRecord(contract, ex, violations) {
    const status = ex.response?.status ?? null;
    let body;
    if (ex.operationId && status !== null && status >= 200 && status < 300 && ex.request.body.length > 0) {
        try {
            body = JSON.parse(ex.request.body.toString("utf8"));
        }
        catch {
            body = undefined;
        }
    }
    const credits = ex.operationId && status !== null && status >= 200 && status < 300
        ? contract.prices.requestCredits(ex.operationId, body ?? {})
        : 0;
    const t = ex.timings;
    return {
        time: new Date(ex.startedAt).toISOString(),
        id: ex.id,
        method: ex.request.method,
        path: redactUrl(ex.request.path),
        status,
        ms: Math.round((t.send + t.wait + t.receive) * 10) / 10,
        operationId: ex.operationId ?? null,
        servedBy: ex.servedBy,
        credits,
        batch: Array.isArray(body),
        violations: violations.map((v) => ({ rule: v.rule, message: v.message })),
        ...(ex.error ? { error: ex.error } : {}),
    };
}
const COLORS = { green: 32, yellow: 33, red: 31, dim: 2 };
/** `09:41:07 POST /search 200 31.2 ms 1 credit ✓ search` or `… ✗ 2 violations: response-schema, status-listed`. */
export function exchangeLine(r, color = false) {
    const paint = (c, s) => (color ? `\x1b[${COLORS[c]}m${s}\x1b[0m` : s);
    const time = new Date(r.time).toTimeString().slice(0, 8);
    const status = r.status === null
        ? paint("red", `no answer (${r.error ?? "?"})`)
        : paint(r.status < 300 ? "green" : r.status < 500 ? "yellow" : "red", String(r.status));
    const cost = r.credits ? `${r.batch ? "≤" : ""}${plural(r.credits, "credit")}` : "free";
    const by = r.servedBy === "upstream" ? "" : ` [${r.servedBy}]`;
    const rules = [...new Set(r.violations.map((v) => v.rule))];
    const verdict = rules.length
        ? paint("red", `✗ ${plural(r.violations.length, "violation")}: ${rules.join(", ")}`)
        : r.operationId
            ? paint("green", `✓ ${r.operationId}`)
            : paint("dim", "· not a contract operation");
    return `${paint("dim", time)} ${r.method} ${r.path} ${status} ${r.ms.toFixed(1)} ms ${cost}${by} ${verdict}`;
}
