// GitHub Actions workflow commands that annotate a run (`::error file=…,line=…,title=…::message`): the one writer
// of `spec diff --format github` and of `conform`, `gate` and `proxy` with `--reporter github` (the default when
// GITHUB_ACTIONS=true, as the runner sets it). Escaping as the runner's toolkit does (@actions/core's command.ts):
// the message escapes %, CR and LF; a property value also : and , (which would end the value).
// Self-contained: no import outside spec/.
/** A workflow command's message. */
export const escapeData = (s) => String(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
/** A workflow command's property value. */
export const escapeProperty = (s) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
/** One annotation as the line the runner reads from the step's output. */
export function githubAnnotation(a) {
    const props = [];
    if (a.file)
        props.push(`file=${escapeProperty(a.file)}`);
    if (a.line !== undefined)
        props.push(`line=${a.line}`);
    if (a.title)
        props.push(`title=${escapeProperty(a.title)}`);
    return `::${a.level}${props.length ? ` ${props.join(",")}` : ""}::${escapeData(a.message)}`;
}
/** `--reporter`: text for people, github adds one annotation per failure (the default under GitHub Actions). */
export const REPORTERS = ["text", "github"];
/** The reporter given, else github when the run is a GitHub Actions step, else text. */
export function chosenReporter(given, env) {
    return given ?? (env.GITHUB_ACTIONS === "true" ? "github" : "text");
}
