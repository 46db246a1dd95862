/** Text safe in XML and HTML character data and attribute values: forbidden characters dropped, markup escaped. */
export declare function htmlEscape(s: unknown): string;
/** The same escaper, named for XML writers. */
export declare const xmlEscape: (s: string) => string;
