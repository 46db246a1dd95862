export function proxyAnnotations(report, failOn) {
    const out = [];
    for (const op of report.operations)
        for (const g of op.rules) {
            if (g.count === 0)
                continue;
            const counted = failOn === "violation" || (failOn === "response" && g.side === "response");
            const first = g.examples[0];
            const n = `${g.count} violation${g.count === 1 ? "" : "s"}`;
            out.push({
                level: counted ? "error" : "warning",
                title: `proxy ${g.rule} [${op.operationId}]`,
                message: `${n} of ${g.rule} (${g.title})${first ? `; first, exchange #${first.exchangeId}: ${first.message}` : ""}`,
            });
        }
    return out;
}
