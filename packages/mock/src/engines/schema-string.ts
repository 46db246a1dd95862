// Strings for the value generator: every `format` ajv-formats checks, a `pattern` when it is simple, else
// realistic text chosen by the property's name (a `price` looks like a price, a `url` like a URL of the page).
import type { Rng } from "./rng.ts";
import type { Schema } from "./schema-merge.ts";
import { stringForPattern } from "./schema-pattern.ts";
import { sentence, titleCase } from "./text.ts";
import { FILLER_TOPICS, FIRST_NAMES, LAST_NAMES } from "./vocabulary.ts";

/** What the generator knows about the page it "extracts" from, to make names and text fit it. */
export interface PageFacts {
  url: string;
  title: string;
  site: string;
  words: string[];
}

/** Used when a pattern is outside the supported subset (schema-pattern.ts). */
export const FALLBACK_STRING = "example";

const pad2 = (n: number) => String(n).padStart(2, "0");

function hex(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join("");
}

function isoDate(rng: Rng): string {
  return `${rng.int(2015, 2026)}-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))}`;
}

function isoTime(rng: Rng): string {
  return `${pad2(rng.int(0, 23))}:${pad2(rng.int(0, 59))}:${pad2(rng.int(0, 59))}Z`;
}

function person(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export function formatString(format: string, rng: Rng, facts: PageFacts): string | null {
  const u = new URL(facts.url);
  const formats: Record<string, () => string> = {
    uri: () => (rng.chance(0.5) ? facts.url : `${u.origin}/${rng.pick(FILLER_TOPICS)}`),
    url: () => facts.url,
    iri: () => facts.url,
    "uri-reference": () => `/${rng.pick(FILLER_TOPICS)}`,
    "iri-reference": () => `/${rng.pick(FILLER_TOPICS)}`,
    "uri-template": () => `${u.origin}/{section}/{id}`,
    email: () => `${rng.pick(FIRST_NAMES).toLowerCase()}@${u.hostname.replace(/^www\./, "")}`,
    "idn-email": () => `${rng.pick(FIRST_NAMES).toLowerCase()}@${u.hostname.replace(/^www\./, "")}`,
    "date-time": () => `${isoDate(rng)}T${isoTime(rng)}`,
    date: () => isoDate(rng),
    time: () => isoTime(rng),
    duration: () => `P${rng.int(1, 30)}D`,
    uuid: () =>
      `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${rng.pick(["8", "9", "a", "b"])}${hex(rng, 3)}-${hex(rng, 12)}`,
    hostname: () => u.hostname,
    "idn-hostname": () => u.hostname,
    ipv4: () => `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
    ipv6: () => `2001:db8::${hex(rng, 4)}`,
    "json-pointer": () => `/${rng.pick(FILLER_TOPICS)}/0`,
    "relative-json-pointer": () => "0/name",
    regex: () => "^[a-z]+$",
    byte: () => Buffer.from(facts.title).toString("base64"),
    password: () => `pw-${hex(rng, 12)}`,
  };
  return formats[format]?.() ?? null;
}

/** Text that suits a property called `name`. */
export function namedText(name: string, rng: Rng, facts: PageFacts): string {
  const n = name.toLowerCase();
  const topic = facts.words.join(" ");
  if (n.includes("email")) return formatString("email", rng, facts) ?? "info@example.com";
  if (/(url|link|href|website|homepage)/.test(n)) return facts.url;
  if (/(date|_at$|time)/.test(n)) return isoDate(rng);
  if (/(title|headline|heading)/.test(n)) return facts.title;
  if (/(author|person|owner|contact)/.test(n)) return person(rng);
  if (/(site|publisher|company|brand|organi[sz]ation)/.test(n)) return facts.site;
  if (/name/.test(n)) return rng.chance(0.5) ? person(rng) : titleCase(rng.pick(facts.words));
  if (/(description|summary|content|text|body|abstract|excerpt|answer)/.test(n)) return sentence(rng, topic);
  if (/(price|cost|amount)/.test(n)) return `$${rng.int(1, 499)}.${pad2(rng.int(0, 99))}`;
  if (/currency/.test(n)) return rng.pick(["USD", "EUR", "GBP"]);
  if (/(lang|locale)/.test(n)) return "en";
  if (/country/.test(n)) return rng.pick(["US", "DE", "FR", "JP", "BR"]);
  if (/city/.test(n)) return rng.pick(["Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi"]);
  if (/phone/.test(n)) return `+1 555 01${pad2(rng.int(0, 99))}`;
  if (/(^id$|_id$|identifier|sku)/.test(n)) return `${n.replace(/_?id$/, "") || "item"}_${hex(rng, 8)}`;
  if (/(status|state)/.test(n)) return rng.pick(["active", "draft", "archived"]);
  return rng.chance(0.5) ? titleCase(rng.pick(facts.words)) : `${rng.pick(facts.words)} ${rng.pick(FILLER_TOPICS)}`;
}

function fitLength(s: string, min: number, max: number, rng: Rng): string {
  let chars = [...s];
  while (chars.length < min) chars.push(...` ${rng.pick(FILLER_TOPICS)}`);
  if (chars.length > max) chars = chars.slice(0, max);
  // a cut can leave a trailing space, and a space-only pad is still text of the length asked for
  return chars.join("");
}

export function generateString(s: Schema, name: string, rng: Rng, facts: PageFacts): string {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Number.POSITIVE_INFINITY;
  if (typeof s.format === "string") {
    const v = formatString(s.format, rng, facts);
    if (v !== null) return v;
  }
  if (typeof s.pattern === "string") {
    for (let attempt = 0; attempt < 6; attempt++) {
      const v = stringForPattern(s.pattern, rng);
      if (v === null) break;
      const len = [...v].length;
      if (len >= min && len <= max) return v;
    }
    return FALLBACK_STRING;
  }
  return fitLength(namedText(name, rng, facts), min, max, rng);
}
