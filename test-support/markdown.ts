// Test glue: the Markdown a user reads, split the way GitHub renders it (fenced blocks, tables, code spans, links,
// headings), for the documentation tests (docs.test.ts, quick-starts.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The pages a user reads: the README, CONTRIBUTING, docs/*.md and the folders' READMEs (paths from the root). */
export function documentationFiles(): string[] {
  const docs = readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  const folders = ["conformance", "fuzz", "load", "mock", "reports", "examples/msw-client", "examples/edges-client"]
    .map((d) => `${d}/README.md`)
    .filter((f) => {
      try {
        readFileSync(`${ROOT}${f}`);
        return true;
      } catch {
        return false;
      }
    });
  return ["README.md", "CONTRIBUTING.md", ...docs, ...folders];
}

export interface CodeBlock {
  /** the info string after the fence: `sh runnable`, `ts examples/quick-start/search.test.ts`, … */
  info: string;
  text: string;
  /** 1-based line of the opening fence */
  line: number;
}

export interface Page {
  file: string;
  blocks: CodeBlock[];
  /** the lines outside fenced blocks, with their 1-based numbers */
  prose: Array<{ line: number; text: string }>;
}

export function readPage(file: string): Page {
  const lines = readFileSync(`${ROOT}${file}`, "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  const prose: Page["prose"] = [];
  let open: { fence: string; info: string; line: number; body: string[] } | null = null;
  lines.forEach((text, i) => {
    const fence = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(text);
    if (open) {
      if (fence?.[2].startsWith(open.fence) && fence[3].trim() === "") {
        blocks.push({ info: open.info, text: open.body.join("\n"), line: open.line });
        open = null;
      } else open.body.push(text);
      return;
    }
    if (fence) open = { fence: fence[2], info: fence[3].trim(), line: i + 1, body: [] };
    else prose.push({ line: i + 1, text });
  });
  return { file, blocks, prose };
}

/** The code spans of a line of prose (backslash escapes aside, as GitHub reads them in a table row too). */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)].map((m) => m[2].replace(/\\\|/g, "|").trim());
}

/** A table row's cells: split on the pipes that are not escaped (a pipe inside a code span must be, as `\|`). */
export function tableCells(row: string): string[] {
  const cells = row.trim().split(/(?<!\\)\|/);
  if (cells[0].trim() === "") cells.shift();
  if (cells.length > 0 && cells[cells.length - 1].trim() === "") cells.pop();
  return cells;
}

/** The prose's paragraphs (lines joined), each with its first line's number. */
export function paragraphs(page: Page): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let previous = -1;
  for (const { line, text } of page.prose) {
    const last = out[out.length - 1];
    if (text.trim() === "" || /^\s*\|/.test(text)) {
      if (text.trim() !== "") out.push({ line, text });
      previous = -1;
      continue;
    }
    if (last && previous === line - 1) last.text += ` ${text.trim()}`;
    else out.push({ line, text });
    previous = line;
  }
  return out;
}

/** The tables of a page's prose: each row's line and cells. */
export function tables(page: Page): Array<Array<{ line: number; cells: string[] }>> {
  const found: Array<Array<{ line: number; cells: string[] }>> = [];
  let current: Array<{ line: number; cells: string[] }> | null = null;
  let previous = -1;
  for (const { line, text } of page.prose) {
    if (/^\s*\|/.test(text) && line === previous + 1 && current) current.push({ line, cells: tableCells(text) });
    else if (/^\s*\|/.test(text)) {
      current = [{ line, cells: tableCells(text) }];
      found.push(current);
    } else current = null;
    previous = line;
  }
  return found.filter((t) => t.length >= 2 && /^\s*\|?\s*:?-{3,}/.test(t[1].cells.join("|")));
}

/** GitHub's anchors of a page's headings (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
export function anchors(page: Page): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of page.prose) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!h) continue;
    const base = h[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The links of a page's prose (not in code spans): their line and target. */
export function links(page: Page): Array<{ line: number; target: string }> {
  const out: Array<{ line: number; target: string }> = [];
  for (const { line, text } of page.prose) {
    const bare = text.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, "``");
    for (const m of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ line, target: m[1] });
  }
  return out;
}

/**
 * The `plumbline …` command lines quoted in a page: in its shell and YAML blocks (a line continued with `\`, or
 * indented under a YAML `run:`, joins the line before) and in its code spans. Each is the words after `plumbline`
 * up to the end of the command (a pipe, `&&`, `;`, `&`, a comment, the `--` before a wrapped command).
 */
export function plumblineCommands(page: Page): Array<{ line: number; words: string[] }> {
  const out: Array<{ line: number; words: string[] }> = [];
  const scan = (line: number, text: string) => {
    const normal = text.replace(/node bin\/plumbline\.js/g, "plumbline");
    // where a command starts: the text's start, after a shell operator or `$ `, `npx `, a YAML `run: `, or the `--`
    // of a wrapping command (`plumbline mock -- plumbline conform …`), which ends the command before it
    for (const m of normal.matchAll(/(?:^\s*|[;&|(]\s*|\$\s+|npx\s+|run:\s+|\s--\s+)plumbline\s+([^\n]*)/g)) {
      const rest = ` ${m[1]}`.split(/\s(?:\||&&|;|&|#|>|--)(?:\s|$)|`|\)$/)[0];
      const words = rest.split(/\s+/).filter(Boolean);
      if (words.length > 0) out.push({ line, words });
    }
  };
  for (const b of page.blocks) {
    const kind = b.info.split(/\s+/)[0];
    if (!["", "sh", "bash", "shell", "console", "yaml", "yml", "text"].includes(kind)) continue;
    const joined: Array<{ line: number; text: string }> = [];
    b.text.split("\n").forEach((text, i) => {
      const last = joined[joined.length - 1];
      const runIndent = last ? /^(\s*)- run:/.exec(last.text)?.[1].length : undefined;
      if (
        last &&
        (last.text.endsWith("\\") ||
          (runIndent !== undefined && /^\s+/.test(text) && !/^\s*- /.test(text) && text.search(/\S/) > runIndent + 2))
      )
        last.text = `${last.text.replace(/\\$/, "")} ${text.trim()}`;
      else joined.push({ line: b.line + 1 + i, text });
    });
    for (const j of joined) scan(j.line, j.text);
  }
  // a code span may wrap onto the next line: spans are read per paragraph
  for (const para of paragraphs(page)) for (const span of codeSpans(para.text)) scan(para.line, span);
  return out;
}
