// Test support: the relevance corpus of issue 14 ("a test corpus of fixture pages with queries whose right answers
// are known"). Pages as the index stores them and as HTML for a fixture site, and the queries with their right page.
export interface CorpusPage {
  path: string;
  title: string;
  language: string;
  published?: string;
  paragraphs: string[];
}

export const CORPUS: CorpusPage[] = [
  {
    path: "/rust-async.html",
    title: "Comparing async runtimes in Rust",
    language: "en",
    paragraphs: [
      "Tokio, async-std and smol are the best known async runtimes for Rust. Each ships an executor that polls futures.",
      "Tokio's multi-threaded scheduler steals work between threads; smol keeps its executor small and simple.",
    ],
  },
  {
    path: "/fastify-plugins.html",
    title: "Fastify plugin encapsulation",
    language: "en",
    paragraphs: [
      "In Fastify every plugin encapsulation context is a child of its parent: decorators and hooks stay inside.",
      "Wrap a plugin with fastify-plugin to share its decorators with the parent context.",
    ],
  },
  {
    path: "/object-design.html",
    title: "Principles of object design",
    language: "en",
    paragraphs: [
      "Encapsulation hides state. Encapsulation is the first principle; encapsulation keeps objects honest.",
      "A plugin architecture lets third parties extend a program; every plugin talks through an interface. Plugin, plugin, plugin.",
    ],
  },
  {
    path: "/sourdough.html",
    title: "Baking sourdough bread at home",
    language: "en",
    paragraphs: [
      "A lively starter, strong flour and high hydration make an open crumb.",
      "Bake the loaves in a preheated Dutch oven, lid on for twenty minutes, then uncovered until deep brown.",
    ],
  },
  {
    path: "/tide-pools.html",
    title: "Life in tide pools",
    language: "en",
    paragraphs: [
      "At low tide the rocky shore reveals anemones, starfish, hermit crabs and mussels.",
      "Intertidal animals survive hours of sun and wind until the sea returns.",
    ],
  },
  {
    path: "/postgres-text-search.html",
    title: "Full-text search in PostgreSQL",
    language: "en",
    paragraphs: [
      "PostgreSQL turns documents into a tsvector and queries into a tsquery; stemming maps connections to connect.",
      "A GIN index over the tsvector column keeps searches fast; ts_rank_cd orders the matches.",
    ],
  },
  {
    path: "/fahrrad.html",
    title: "Fahrradreparatur für Anfänger",
    language: "de",
    paragraphs: [
      "Wer sein Fahrrad selbst repariert, spart Geld. Die Kette läuft leiser, wenn sie geölt wird.",
      "Zum Reifenwechsel braucht man zwei Reifenheber; die Schläuche der Fahrräder halten länger bei richtigem Druck.",
    ],
  },
  {
    path: "/cuisine.html",
    title: "Recettes de cuisine française",
    language: "fr",
    paragraphs: [
      "Les crêpes bretonnes se préparent avec de la farine de sarrasin, des œufs et du lait.",
      "Pour les gâteaux, préchauffez le four et beurrez les moules.",
    ],
  },
  {
    path: "/news/council-bicycle-lanes.html",
    title: "City council approves new bicycle lanes",
    language: "en",
    published: "2026-11-20T09:00:00Z",
    paragraphs: ["The council voted to build protected bicycle lanes on the main avenue next spring."],
  },
  {
    path: "/news/bicycle-lanes-open.html",
    title: "Bicycle lanes open downtown",
    language: "en",
    published: "2026-11-25T08:00:00Z",
    paragraphs: ["The new protected bicycle lanes opened downtown this morning, cyclists cheered."],
  },
  {
    path: "/news/bicycle-lanes-plan.html",
    title: "Bicycle lanes plan announced",
    language: "en",
    published: "2025-01-10T12:00:00Z",
    paragraphs: ["The city announced a plan for protected bicycle lanes across downtown."],
  },
];

/** Queries whose right answer is known: `first` must rank first. */
export const RELEVANCE_QUERIES: Array<{
  query: string;
  language?: string;
  first: string;
  why: string;
  /** only where the store stems that language (SQLite stems English alone) */
  only?: "postgres";
}> = [
  { query: "async runtime rust", first: "/rust-async.html", why: "plain words, one plural stemmed" },
  { query: "fastify encapsulation", first: "/fastify-plugins.html", why: "title words" },
  { query: '"plugin encapsulation"', first: "/fastify-plugins.html", why: "phrase beats a page repeating both words" },
  { query: "sourd*", first: "/sourdough.html", why: "prefix" },
  { query: "connecti*", first: "/postgres-text-search.html", why: "prefix past a stem" },
  { query: "baked loaf", first: "/sourdough.html", why: "English stemming (baking/bake, loaves/loaf)" },
  { query: "starfish anemone", first: "/tide-pools.html", why: "plural stemmed" },
  { query: "Reifenheber Kette", language: "de", first: "/fahrrad.html", why: "German page, language given" },
  { query: "crêpe sarrasin", language: "fr", first: "/cuisine.html", why: "French with diacritics" },
  { query: "CREPES", first: "/cuisine.html", why: "case and diacritics folded" },
  { query: "Fahrrädern Schlauch", language: "de", first: "/fahrrad.html", why: "German stemming", only: "postgres" },
  { query: "gâteau préchauffer", language: "fr", first: "/cuisine.html", why: "French stemming", only: "postgres" },
];

const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The page as a fixture site serves it: a real article with a date where it has one. */
export function corpusHtml(p: CorpusPage): string {
  const date = p.published ? `<meta property="article:published_time" content="${p.published}">` : "";
  return `<!doctype html><html lang="${p.language}"><head><meta charset="utf-8"><title>${esc(p.title)}</title>${date}</head>
<body><nav><a href="/">Home</a></nav><main><article><h1>${esc(p.title)}</h1>
${p.paragraphs.map((x) => `<p>${esc(x)}</p>`).join("\n")}
<img src="/images${p.path.replace(/\.html$/, ".png")}" alt="illustration"></article></main></body></html>`;
}

export function corpusMarkdown(p: CorpusPage): string {
  return `# ${p.title}\n\n${p.paragraphs.join("\n\n")}\n\n![illustration](https://corpus.test/images${p.path.replace(/\.html$/, ".png")})\n`;
}
