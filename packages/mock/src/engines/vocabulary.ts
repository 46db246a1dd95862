// Word and host lists the synthetic engines draw from. Plain data: realistic enough that a client's rendering
// and parsing code meets ordinary-looking titles, hosts and prose.

export const WEB_HOSTS = [
  "en.wikipedia.org",
  "developer.mozilla.org",
  "stackoverflow.com",
  "github.com",
  "medium.com",
  "dev.to",
  "www.reddit.com",
  "news.ycombinator.com",
  "docs.python.org",
  "learn.microsoft.com",
  "www.freecodecamp.org",
  "blog.cloudflare.com",
  "arstechnica.com",
  "www.theverge.com",
  "www.nature.com",
  "www.britannica.com",
  "www.investopedia.com",
  "www.nytimes.com",
  "www.howtogeek.com",
  "css-tricks.com",
  "web.dev",
  "www.smashingmagazine.com",
  "martinfowler.com",
  "www.digitalocean.com",
] as const;

export const NEWS_HOSTS = [
  "www.reuters.com",
  "apnews.com",
  "www.bbc.co.uk",
  "www.theguardian.com",
  "www.ft.com",
  "www.bloomberg.com",
  "www.cnbc.com",
  "www.aljazeera.com",
  "www.npr.org",
  "www.wsj.com",
  "www.washingtonpost.com",
  "techcrunch.com",
  "www.axios.com",
  "www.politico.com",
] as const;

/** Engines whose results all live on one site. */
export const SERVICE_HOSTS: Record<string, readonly string[]> = {
  youtube: ["www.youtube.com"],
  x: ["x.com"],
  reddit: ["www.reddit.com", "old.reddit.com"],
  github: ["github.com"],
  arxiv: ["arxiv.org"],
  wikipedia: ["en.wikipedia.org"],
  imdb: ["www.imdb.com"],
  bilibili: ["www.bilibili.com"],
  wechat: ["mp.weixin.qq.com"],
  reuters: ["www.reuters.com"],
};

export const FILLER_TOPICS = [
  "performance",
  "security",
  "design",
  "testing",
  "pricing",
  "migration",
  "history",
  "research",
  "community",
  "tooling",
  "reliability",
  "standards",
] as const;

export const NEWS_SECTIONS = ["world", "business", "technology", "markets", "science", "politics", "health"] as const;

export const PAGE_SECTIONS = [
  "Overview",
  "Background",
  "How it works",
  "Getting started",
  "Key points",
  "Examples",
  "Common questions",
  "Further reading",
] as const;

export const VERBS = ["explains", "covers", "compares", "walks through", "summarises", "examines", "outlines"] as const;

export const ADJECTIVES = ["practical", "complete", "short", "detailed", "modern", "visual", "hands-on"] as const;

export const FIRST_NAMES = ["Ada", "Grace", "Linus", "Margaret", "Alan", "Barbara", "Ken", "Radia", "Tim", "Frances"];

export const LAST_NAMES = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Turing", "Liskov", "Thompson", "Perlman"];

export const GITHUB_OWNERS = ["vercel", "rust-lang", "microsoft", "denoland", "facebook", "astral-sh", "ollama"];

export const REPO_WORDS = ["fast", "tiny", "lens", "forge", "kit", "flow", "graph", "cache", "agent", "db", "ui"];
