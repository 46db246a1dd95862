// Strings for a JSON Schema `pattern`, for the simple regular expressions response formats use (literals,
// classes, escapes, groups, alternation, quantifiers, anchors). Anything else (lookaround, back-references)
// is refused, and every result is checked against the pattern as ajv compiles it (the `u` flag).
import type { Rng } from "./rng.ts";

type Node =
  | { kind: "chars"; set: string[] }
  | { kind: "seq"; items: Node[] }
  | { kind: "alt"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number };

const DIGITS = [..."0123456789"];
const LOWER = [..."abcdefghijklmnopqrstuvwxyz"];
const WORD = [...LOWER, ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ", ...DIGITS, "_"];
const PRINTABLE = [...WORD, ..." -.,:;!?@#%&*+=/()[]{}<>'\"~^$|\\`"];

class Unsupported extends Error {}

function escapeSet(ch: string): string[] | null {
  const table: Record<string, string[]> = {
    d: DIGITS,
    w: WORD,
    s: [" "],
    D: LOWER,
    W: ["-", " ", "."],
    S: LOWER,
    n: ["\n"],
    t: ["\t"],
    r: ["\r"],
  };
  if (ch in table) return table[ch];
  if (/[1-9bBkpPcxu]/.test(ch)) return null; // back-references, boundaries, properties: not handled
  return [ch];
}

function parse(src: string): Node {
  let i = 0;
  const peek = () => src[i];
  function alternation(): Node {
    const options = [sequence()];
    while (peek() === "|") {
      i++;
      options.push(sequence());
    }
    return options.length === 1 ? options[0] : { kind: "alt", options };
  }
  function sequence(): Node {
    const items: Node[] = [];
    while (i < src.length && peek() !== "|" && peek() !== ")") {
      const atom = parseAtom();
      if (atom) items.push(quantified(atom));
    }
    return { kind: "seq", items };
  }
  function parseAtom(): Node | null {
    const ch = src[i++];
    if (ch === "^" || ch === "$") return null;
    if (ch === ".") return { kind: "chars", set: LOWER };
    if (ch === "(") {
      if (src.startsWith("?:", i)) i += 2;
      else if (src.startsWith("?<", i) && src[i + 2] !== "=" && src[i + 2] !== "!") i = src.indexOf(">", i) + 1;
      else if (peek() === "?") throw new Unsupported("lookaround");
      const inner = alternation();
      if (src[i++] !== ")") throw new Unsupported("unbalanced group");
      return inner;
    }
    if (ch === "[") return charClass();
    if (ch === "\\") {
      const set = escapeSet(src[i++]);
      if (!set) throw new Unsupported("escape");
      return { kind: "chars", set };
    }
    if ("*+?{".includes(ch)) throw new Unsupported("dangling quantifier");
    return { kind: "chars", set: [ch] };
  }
  function charClass(): Node {
    const negate = peek() === "^";
    if (negate) i++;
    const set: string[] = [];
    let first = true;
    while (i < src.length && (peek() !== "]" || first)) {
      first = false;
      let ch = src[i++];
      if (ch === "\\") {
        const esc = escapeSet(src[i++]);
        if (!esc) throw new Unsupported("escape in class");
        if (esc.length > 1) {
          set.push(...esc);
          continue;
        }
        ch = esc[0];
      }
      if (peek() === "-" && src[i + 1] !== "]" && i + 1 < src.length) {
        i++;
        let end = src[i++];
        if (end === "\\") end = src[i++];
        for (let c = ch.codePointAt(0) ?? 0; c <= (end.codePointAt(0) ?? 0); c++) set.push(String.fromCodePoint(c));
      } else set.push(ch);
    }
    if (src[i++] !== "]") throw new Unsupported("unterminated class");
    const chosen = negate ? PRINTABLE.filter((c) => !set.includes(c)) : set;
    if (chosen.length === 0) throw new Unsupported("empty class");
    return { kind: "chars", set: chosen };
  }
  function quantified(atom: Node): Node {
    const ch = peek();
    let min = 1;
    let max = 1;
    if (ch === "*" || ch === "+" || ch === "?") {
      i++;
      [min, max] = ch === "*" ? [0, 3] : ch === "+" ? [1, 4] : [0, 1];
    } else if (ch === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return atom;
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + 3;
    } else return atom;
    if (peek() === "?") i++; // lazy: same strings
    return { kind: "repeat", node: atom, min, max };
  }
  const node = alternation();
  if (i < src.length) throw new Unsupported("trailing input");
  return node;
}

function emit(node: Node, rng: Rng): string {
  switch (node.kind) {
    case "chars":
      return rng.pick(node.set);
    case "seq":
      return node.items.map((n) => emit(n, rng)).join("");
    case "alt":
      return emit(rng.pick(node.options), rng);
    case "repeat": {
      const n = rng.int(node.min, Math.min(node.max, node.min + 6));
      return Array.from({ length: n }, () => emit(node.node, rng)).join("");
    }
  }
}

/** A string matching `pattern`, or null when the pattern is outside the supported subset. */
export function stringForPattern(pattern: string, rng: Rng): string | null {
  let re: RegExp;
  let tree: Node;
  try {
    re = new RegExp(pattern, "u");
    tree = parse(pattern);
  } catch {
    return null;
  }
  for (let attempt = 0; attempt < 8; attempt++) {
    const s = emit(tree, rng);
    if (re.test(s)) return s;
  }
  return null;
}
