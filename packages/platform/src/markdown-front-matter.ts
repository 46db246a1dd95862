// YAML front matter for the deepcrawl documents (D-deepcrawl-zip): every string value double-quoted by the `yaml`
// package, so titles with quotes, colons, `---` or newlines still parse back to themselves.
import { parseYaml, stringifyYaml } from "@plumbline-kit/contract/yaml";

export function withFrontMatter(data: Record<string, string | null>, body: string): string {
  const yaml = stringifyYaml(data, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN", lineWidth: 0 });
  const text = body.endsWith("\n") || body === "" ? body : `${body}\n`;
  return `---\n${yaml}---\n\n${text}`;
}

/** The front matter and body of a document; `data` is null when it does not start with a front matter block. */
export function readFrontMatter(doc: string): { data: Record<string, unknown> | null; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n?/.exec(doc);
  if (!match) return { data: null, body: doc };
  const data = parseYaml(match[1]) as unknown;
  const isRecord = data !== null && typeof data === "object" && !Array.isArray(data);
  return { data: isRecord ? (data as Record<string, unknown>) : null, body: doc.slice(match[0].length) };
}
