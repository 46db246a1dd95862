// Where `spec diff` reads a document from: a file (YAML or JSON), or `git:REF:path` (the document as committed at
// REF, read with `git show`, so `git:origin/main:spec/openapi.yaml` compares a branch with main). The text is parsed
// once with the `yaml` package's LineCounter kept, so a change found at a JSON pointer can name its line.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { promisify } from "node:util";
import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";

const run = promisify(execFile);

export interface SpecSource {
  /** as the user wrote it: a path or `git:REF:path` */
  label: string;
  /** the file a GitHub annotation names: the path (relative to the working directory), or the git path */
  file: string;
  /** the parsed document (plain JSON values) */
  document: Record<string, unknown>;
  /** OpenAPI major.minor: "3.0" or "3.1" */
  version: "3.0" | "3.1";
  /** 1-based line of the node at a JSON pointer (its key's line), or of its nearest ancestor that exists */
  lineOf(pointer: string): number;
}

export class SpecSourceError extends Error {}

/** `git:REF:path` → { ref, path }; null for a plain path. REF may itself hold `:` only as `REF:path`'s separator. */
export function parseGitSource(source: string): { ref: string; path: string } | null {
  if (!source.startsWith("git:")) return null;
  const rest = source.slice(4);
  const at = rest.lastIndexOf(":");
  if (at <= 0 || at === rest.length - 1) {
    throw new SpecSourceError(`"${source}" is not git:REF:path (e.g. git:origin/main:spec/openapi.yaml)`);
  }
  return { ref: rest.slice(0, at), path: rest.slice(at + 1) };
}

export interface ReadOptions {
  /** working directory of file paths and of `git` (default: the process's) */
  cwd?: string;
}

/** The source's text, from the file system or from git. */
async function readText(source: string, cwd: string): Promise<{ text: string; file: string }> {
  const git = parseGitSource(source);
  if (git) {
    if (git.ref.startsWith("-")) throw new SpecSourceError(`git ref "${git.ref}" may not start with "-"`);
    try {
      // REF:path names the path from the repository's root, as `git show` reads it
      const { stdout } = await run("git", ["show", `${git.ref}:${git.path}`], {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        encoding: "utf8",
      });
      return { text: stdout, file: git.path };
    } catch (err) {
      const stderr = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim();
      throw new SpecSourceError(`cannot read ${source}: ${stderr.split("\n")[0]}`);
    }
  }
  const path = resolve(cwd, source);
  try {
    return { text: await readFile(path, "utf8"), file: relative(cwd, path) || source };
  } catch (err) {
    throw new SpecSourceError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** JSON pointer tokens, unescaped. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function lineLocator(doc: Document, counter: LineCounter): (pointer: string) => number {
  const lineAt = (offset: number | undefined) => (offset === undefined ? 1 : counter.linePos(offset).line);
  return (pointer) => {
    let node: Node | null = doc.contents;
    let line = lineAt(node?.range?.[0]);
    for (const token of pointerTokens(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === token);
        if (!pair) break;
        line = lineAt((pair.key as Node).range?.[0]);
        node = (pair.value as Node | null) ?? null;
      } else if (isSeq(node)) {
        const item = node.items[Number(token)] as Node | undefined;
        if (!item) break;
        line = lineAt(item.range?.[0]);
        node = item;
      } else break;
    }
    return line;
  };
}

/** Parses a document's text (YAML or JSON) into a source. */
export function specSourceFromText(text: string, label: string, file = label): SpecSource {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new SpecSourceError(`${label} does not parse: ${e.message.split("\n")[0]}`);
  }
  const document = doc.toJS({ maxAliasCount: 1000 }) as unknown;
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new SpecSourceError(`${label} is not an OpenAPI document (not a mapping)`);
  }
  const openapi = (document as Record<string, unknown>).openapi;
  const version = typeof openapi === "string" ? /^3\.(0|1)\./.exec(openapi) : null;
  if (!version) {
    const seen = openapi === undefined ? "no `openapi` field" : `openapi: ${JSON.stringify(openapi)}`;
    throw new SpecSourceError(`${label} is not an OpenAPI 3.0 or 3.1 document (${seen})`);
  }
  return {
    label,
    file,
    document: document as Record<string, unknown>,
    version: `3.${version[1]}` as "3.0" | "3.1",
    lineOf: lineLocator(doc, counter),
  };
}

/** Reads a document from a file or `git:REF:path`; throws SpecSourceError with a one-line reason. */
export async function readSpecSource(source: string, options: ReadOptions = {}): Promise<SpecSource> {
  const { text, file } = await readText(source, options.cwd ?? process.cwd());
  return specSourceFromText(text, source, file);
}
