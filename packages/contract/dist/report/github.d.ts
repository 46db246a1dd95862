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
export declare const escapeData: (s: string) => string;
/** A workflow command's property value. */
export declare const escapeProperty: (s: string) => string;
/** One annotation as the line the runner reads from the step's output. */
export declare function githubAnnotation(a: Annotation): string;
/** `--reporter`: text for people, github adds one annotation per failure (the default under GitHub Actions). */
export declare const REPORTERS: readonly ["text", "github"];
export type Reporter = (typeof REPORTERS)[number];
/** The reporter given, else github when the run is a GitHub Actions step, else text. */
export declare function chosenReporter(given: Reporter | undefined, env: Record<string, string | undefined>): Reporter;
