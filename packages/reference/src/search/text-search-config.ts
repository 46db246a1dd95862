// PostgreSQL text search configuration per language (issue 14 "Relevance": stemming per `language` where the store
// offers it). The built-in configurations of PostgreSQL 15 (`\dF`), keyed by ISO 639-1 code; a language without
// one is indexed and queried with `simple` (case folding, no stemming). Pages that declare no language are taken
// as English, the web's majority language, so their words are stemmed.
const CONFIGS: Record<string, string> = {
  ar: "arabic",
  hy: "armenian",
  eu: "basque",
  ca: "catalan",
  da: "danish",
  nl: "dutch",
  en: "english",
  fi: "finnish",
  fr: "french",
  de: "german",
  el: "greek",
  hi: "hindi",
  hu: "hungarian",
  id: "indonesian",
  ga: "irish",
  it: "italian",
  lt: "lithuanian",
  ne: "nepali",
  no: "norwegian",
  nb: "norwegian",
  nn: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sr: "serbian",
  es: "spanish",
  sv: "swedish",
  ta: "tamil",
  tr: "turkish",
  yi: "yiddish",
};

export const UNDECLARED_LANGUAGE_CONFIG = "english";

export function textSearchConfig(language: string | null | undefined): string {
  if (!language) return UNDECLARED_LANGUAGE_CONFIG;
  return CONFIGS[language.toLowerCase().split(/[-_]/)[0]] ?? "simple";
}

/** Every configuration a page can be indexed with. */
export const ALL_CONFIGS = [...new Set([...Object.values(CONFIGS), "simple"])];
