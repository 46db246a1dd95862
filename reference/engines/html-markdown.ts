// HTML → Markdown (D-crawl-content: headings, lists, links, code blocks), with turndown. ATX headings, fenced code
// (the language kept from a `language-*` class), "-" bullets followed by one space as the mock writes them.
import TurndownService from "turndown";

const service = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
  hr: "---",
});

service.remove(["script", "style", "noscript", "template", "iframe", "button", "form", "input", "select", "textarea"]);

// turndown's own rule pads bullets to four columns ("-   item"); one space is what Markdown writers use.
service.addRule("listItem", {
  filter: "li",
  replacement(content, node, options) {
    const parent = node.parentNode as Element | null;
    let prefix = `${options.bulletListMarker} `;
    if (parent?.nodeName === "OL") {
      const start = Number(parent.getAttribute("start") ?? 1);
      prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
    }
    const body = content
      .replace(/^\n+/, "")
      .replace(/\n+$/, "\n")
      .replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
    return prefix + body + (node.nextSibling && !/\n$/.test(body) ? "\n" : "");
  },
});

// an inline image in a data: URI would put kilobytes of base64 into the text; keep its alt text only
service.addRule("dataImage", {
  filter: (node) => node.nodeName === "IMG" && (node.getAttribute("src") ?? "").startsWith("data:"),
  replacement: (_content, node) => (node as Element).getAttribute("alt") ?? "",
});

/** Markdown of an HTML fragment or element; runs of blank lines collapsed. */
export function toMarkdown(html: string | Node): string {
  return service
    .turndown(html as string)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
