// GitHub Actions workflow commands that annotate a run (`::error file=…,line=…,title=…::message`): the one writer
// of `spec diff --format github` and of `conform`, `gate` and `proxy` with `--reporter github` (the default when
// GITHUB_ACTIONS=true, as the runner sets it). Escaping as the runner's toolkit does (@actions/core's command.ts):
// the message escapes %, CR and LF; a property value also : and , (which would end the value).
// Self-contained: no import outside spec/.

export type AnnotationLevel = "error" | "warning" | "notice";

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  title?: string;
  /** a path from the repository's root, and the line in it */
  file?: string;
  line?: number;
}

/** A workflow command's message. */
export const escapeData = (s: string): string =>
  String(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/** A workflow command's property value. */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** One annotation as the line the runner reads from the step's output. */
export function githubAnnotation(a: Annotation): string {
  const props: string[] = [];
  if (a.file) props.push(`file=${escapeProperty(a.file)}`);
  if (a.line !== undefined) props.push(`line=${a.line}`);
  if (a.title) props.push(`title=${escapeProperty(a.title)}`);
  return `::${a.level}${props.length ? ` ${props.join(",")}` : ""}::${escapeData(a.message)}`;
}

/** `--reporter`: text for people, github adds one annotation per failure (the default under GitHub Actions). */
export const REPORTERS = ["text", "github"] as const;
export type Reporter = (typeof REPORTERS)[number];

/** The reporter given, else github when the run is a GitHub Actions step, else text. */
export function chosenReporter(given: Reporter | undefined, env: Record<string, string | undefined>): Reporter {
  return given ?? (env.GITHUB_ACTIONS === "true" ? "github" : "text");
}
