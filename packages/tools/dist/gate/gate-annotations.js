export function gateAnnotations(r) {
    if (r.error)
        return [{ level: "error", title: "plumbline gate could not run", message: r.error }];
    const out = [];
    for (const s of r.stages) {
        if (s.exitCode === 2)
            out.push({ level: "error", title: `gate ${s.stage} could not run`, message: s.error ?? s.summary });
        for (const c of s.cases) {
            if (c.failure === undefined)
                continue;
            const [first, ...rest] = c.failure.split("\n").filter((l) => l.trim() !== "");
            const more = rest.length > 0 ? ` (and ${rest.length} more in the report)` : "";
            out.push({ level: "error", title: `gate ${s.stage}: ${c.name}`, message: `${first ?? c.name}${more}` });
        }
    }
    return out;
}
