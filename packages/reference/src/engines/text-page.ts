// A non-HTML text body as a crawl result (issue 5: "non-HTML text types handled"). content is Markdown
// (D-crawl-content): Markdown and plain text stand as they are; JSON, XML and other structured text go into a fenced
// code block named by their type, so a Markdown reader shows them verbatim.

const FENCED: [RegExp, string][] = [
  [/json$/, "json"],
  [/xml$/, "xml"],
  [/yaml$/, "yaml"],
  [/toml$/, "toml"],
  [/(javascript|ecmascript)$/, "javascript"],
  [/^text\/css$/, "css"],
  [/^text\/csv$/, "csv"],
];

function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((m) => m.length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${lang}\n${text.replace(/\n+$/, "")}\n${ticks}`;
}

function nameOf(url: string): string {
  const u = new URL(url);
  return decodeURIComponent(u.pathname.split("/").filter(Boolean).at(-1) ?? "") || u.hostname;
}

export function textPage(text: string, type: string, url: string): { title: string; content: string } {
  const body = text.trim();
  if (type === "text/markdown" || type === "text/x-markdown") {
    const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
    return { title: heading || nameOf(url), content: body };
  }
  const lang = FENCED.find(([re]) => re.test(type))?.[1];
  return { title: nameOf(url), content: lang && body ? fence(body, lang) : body };
}
