// robots.txt read with robots-parser and matched in bounded time (issue 38). robots-parser parses the file (groups,
// user agents, Allow/Disallow, Crawl-delay, Sitemap) and its isAllowed is the reference of what a rule means, but
// its matcher (google/robotstxt's) costs pattern length × path length for every rule with a `*`, and a deepcrawl
// asks it once per link found: 25,000 rules of `/*a*a*a*a*a*a*a*a*a*a` (well inside the 512 KiB a robots.txt is read
// to) took 2.6 s per 2,000-character path on the event loop. Two bounds:
//   - a rule whose pattern is longer than MAX_ROBOTS_RULE_CHARS (16,664 characters: the line length Google's own
//     parser reads, robots.cc kMaxLineLen = 2083 × 8, eight times the longest URL browsers take) is dropped, and
//     counted; its group stays (a group whose only rule was dropped still names its user agents);
//   - the rules of the group that applies are matched here with the same semantics (`*` any run of characters, a
//     final `$` the end of the path, the longest matching pattern wins, Allow on a tie) in linear time: a pattern is
//     split at its `*`s once, and each piece is found left to right with indexOf (leftmost placement of each piece is
//     the one that leaves most of the path to the rest, so it finds a match whenever one exists). A property test
//     checks this against robots-parser's own isAllowed.
import robots from "robots-parser";

// robots-parser is CommonJS (`module.exports = fn`) typed as an ES default export; the default import is the function
const robotsParser = robots as unknown as (typeof robots)["default"];

/** A robots.txt rule longer than this is not a real rule (Google's parser reads a line up to 2083 × 8 bytes). */
export const MAX_ROBOTS_RULE_CHARS = 2083 * 8;

/** robots-parser's rule as it keeps it (3.0.1: `_rules[userAgent]`, patterns already percent-normalised) */
interface ParsedRule {
  pattern: string;
  allow: boolean;
}

interface CompiledRule {
  /** the pattern's length, which ranks matches */
  length: number;
  allow: boolean;
  /** the pattern split at `*` (a final `$` removed first) */
  pieces: string[];
  /** the pattern ended with `$` */
  anchored: boolean;
}

export interface RobotsTxt {
  /** true or false for a URL of this file's origin; undefined for another origin (not this file's to judge) */
  isAllowed(url: string): boolean | undefined;
  /** the Crawl-delay of the group that applies, in seconds; undefined when it sets none */
  crawlDelay: number | undefined;
  sitemaps: string[];
  /** Allow/Disallow rules dropped for their length (MAX_ROBOTS_RULE_CHARS) */
  droppedRules: number;
}

const RULE_LINE = /^(\s*(?:dis)?allow\s*:)([^#\r\n]*)(.*)$/i;

/** `text` with every Allow/Disallow pattern past the cap emptied (an empty rule is none), and how many there were. */
export function withoutOverlongRules(text: string): { text: string; dropped: number } {
  let dropped = 0;
  const lines = text.split(/(\r\n|\r|\n)/);
  for (let i = 0; i < lines.length; i += 2) {
    if (lines[i].length <= MAX_ROBOTS_RULE_CHARS) continue;
    const m = RULE_LINE.exec(lines[i]);
    if (!m || m[2].trim().length <= MAX_ROBOTS_RULE_CHARS) continue;
    lines[i] = `${m[1]}${m[3]}`;
    dropped++;
  }
  return { text: dropped > 0 ? lines.join("") : text, dropped };
}

function compile(rule: ParsedRule): CompiledRule {
  const anchored = rule.pattern.endsWith("$");
  const body = anchored ? rule.pattern.slice(0, -1) : rule.pattern;
  return { length: rule.pattern.length, allow: rule.allow, pieces: body.split("*"), anchored };
}

/** Whether the pattern matches a prefix of `path` (the whole of it when anchored): linear in their lengths. */
export function patternMatches(pieces: readonly string[], anchored: boolean, path: string): boolean {
  const first = pieces[0];
  if (!path.startsWith(first)) return false;
  const last = pieces.length - 1;
  if (last === 0) return !anchored || path.length === first.length;
  let pos = first.length;
  for (let i = 1; i < last; i++) {
    const at = path.indexOf(pieces[i], pos);
    if (at < 0) return false;
    pos = at + pieces[i].length;
  }
  const tail = pieces[last];
  if (!anchored) return path.indexOf(tail, pos) >= 0;
  return path.length - tail.length >= pos && path.endsWith(tail);
}

/** `http://host` with the default port made explicit, as robots-parser compares origins */
function parseUrl(url: string): URL | null {
  try {
    const u = new URL(url, "http://robots-relative.samclarke.com/");
    if (!u.port) u.port = u.protocol === "https:" ? "443" : "80";
    return u;
  } catch {
    return null;
  }
}

const upperEscapes = (path: string) => path.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase());

/** As robots-parser names a user agent: lower case, without its version */
const agentName = (ua: string) => ua.toLowerCase().split("/")[0].trim();

/** Parses `text`, the robots.txt at `url`, for `userAgent`. */
export function parseRobotsTxt(url: string, text: string, userAgent: string): RobotsTxt {
  const { text: bounded, dropped } = withoutOverlongRules(text);
  const parsed = robotsParser(url, bounded);
  // the group robots-parser's isAllowed would use, read from its parse (its rules are not exposed otherwise)
  const groups = (parsed as unknown as { _rules: Record<string, ParsedRule[] | undefined> })._rules;
  const group = groups[agentName(userAgent)] ?? groups["*"] ?? [];
  const rules = group.map(compile);
  const base = parseUrl(url);
  return {
    isAllowed(target) {
      const u = parseUrl(target);
      if (!u || !base || u.protocol !== base.protocol || u.hostname !== base.hostname || u.port !== base.port)
        return undefined;
      const path = upperEscapes(u.pathname + u.search);
      let best: CompiledRule | null = null;
      for (const r of rules) {
        if (!patternMatches(r.pieces, r.anchored, path)) continue;
        if (!best || r.length > best.length || (r.length === best.length && r.allow && !best.allow)) best = r;
      }
      return !best || best.allow;
    },
    crawlDelay: parsed.getCrawlDelay(userAgent),
    sitemaps: parsed.getSitemaps(),
    droppedRules: dropped,
  };
}
