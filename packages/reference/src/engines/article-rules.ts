// What is not the article, removed from the content Readability chose (issue 13: galleries and captions, bylines
// and datelines, share bars, related blocks, newsletter and cookie prompts, comments). Each rule is named so the
// benchmark can measure what it gains (README, "Crawl quality"); every rule is general (class names and words
// sites use for these parts), none names a site. A removal never takes half the article: a block that large is
// more likely the text itself.
import {
  closestTag,
  findElement,
  isHeading,
  isLeafBlock,
  linkDensity,
  nameOf,
  textLengthOf,
  textOf,
  wordCount,
  wordCountOf,
} from "./article-text.ts";
import { localTag, tagSet } from "./tag-selectors.ts";

export interface ArticleRule {
  name: string;
  apply(root: Element): void;
}

// the root's word count, measured once per rule rather than at every removal
const rootWords = new WeakMap<Element, number>();

/** Removes `el` unless it holds half or more of the root's words (then the guess is more likely wrong). */
function removeGuarded(el: Element, root: Element): void {
  if (el === root || !el.isConnected) return;
  const total = rootWords.get(root) ?? wordCountOf(root);
  if (total > 0 && wordCountOf(el) >= total / 2) return;
  el.remove();
}

// Lists of tag names go to querySelectorAll, which answers them by a walk (tag-selectors.ts); closest() and the
// attribute test below are walks too: linkedom compiles a selector at every call, and these run for every candidate
// block of every page (issue 12).

/** Elements with a class or an id ("[class], [id]"). */
function named(root: Element): Element[] {
  const out: Element[] = [];
  findElement(root, (el) => {
    if (el.hasAttribute("class") || el.hasAttribute("id")) out.push(el);
  });
  return out;
}

function byName(root: Element, pattern: RegExp, maxWords = Number.POSITIVE_INFINITY): void {
  for (const el of named(root)) {
    if (!el.isConnected || !pattern.test(nameOf(el))) continue;
    if (wordCountOf(el) <= maxWords) removeGuarded(el, root);
  }
}

function leafBlocks(root: Element): Element[] {
  return [...root.querySelectorAll("p, div, span, h1, h2, h3, h4, h5, h6, li, time, address, small")].filter(
    (el) => el.isConnected && isLeafBlock(el),
  );
}

const TABLE = tagSet("table");
const LISTS = tagSet("ul, ol");
const TABLE_OR_LIST = tagSet("table, ul, ol");

const INLINE = tagSet("span, time, small, em, strong");

/** Short paragraph-like blocks, outside tables and lists, whose text matches. */
function byText(root: Element, pattern: RegExp, maxWords: number, inLists = false): void {
  for (const el of [...root.querySelectorAll("p, div, span, h1, h2, h3, h4, h5, h6, li, time, small, em, strong")]) {
    if (!el.isConnected || closestTag(el, TABLE)) continue;
    if (!inLists && localTag(el) !== "li" && closestTag(el, LISTS)) continue;
    // counted before the text is built: most candidates are long
    if (wordCountOf(el) > maxWords) continue;
    const text = textOf(el);
    if (!text) continue;
    // an inline element counts only when it is the whole of its block: "Reuters/Ipsos" inside a sentence stays
    const parent = el.parentElement;
    if (INLINE.has(localTag(el)) && parent && (textLengthOf(parent) !== text.length || textOf(parent) !== text))
      continue;
    if (pattern.test(text)) removeGuarded(el, root);
  }
}

const w = (words: string) => new RegExp(`(?:^| )(?:${words})(?: |$)`);

// figures: the picture, its caption and its credit; galleries and their "1 of 4" counters
const FIGURE_NAMES = w(
  "caption|captions|credit|credits|gallery|slideshow|slider|carousel|lightbox|figure|photo credit|image credit|media credit|wp caption",
);
const COUNTER = /^(?:(?:image|photo|picture|slide|item)s?\s*)?\d+\s*(?:of|\/|von|de|sur|di)\s*\/?\s*\d+$/i;
const AGENCIES = "getty images|ap photo|afp|reuters|shutterstock|epa(?:-efe)?|alamy|istock(?:photo)?|bloomberg";
// "Alex Wong | Getty Images", "Ali/Hindustan Times/Getty Images", "REUTERS/Jane Doe", "(Image: © NASA)": the agency
// closes or opens the line, so "the latest Reuters/Ipsos poll" in a sentence is no credit
const PHOTO_CREDIT = new RegExp(
  `[/|]\\s*(?:${AGENCIES})\\W*$|^\\W*(?:${AGENCIES})\\s*[/|]|^\\W*(?:credit|photo(?:graph)?|image)s?\\s*:`,
  "i",
);
const CAPTION_END = new RegExp(
  `\\((?:[^()]*\\b(?:${AGENCIES}|photo|image|file)\\b[^()]*)\\)\\W*$|\\b(?:photo|image|credit):[^.]*$`,
  "i",
);
const FIGURE_BOX = tagSet("div, span, section, figure, a, picture");
const BOX_TEXT = tagSet("p, h1, h2, h3, h4, h5, h6, li, table, pre");
const FIGCAPTION = tagSet("figcaption");
/** A box with a paragraph, heading, list, table or code of its own (not a caption's) is text, not a figure. */
const holdsText = (box: Element) =>
  findElement(box, (b) => (BOX_TEXT.has(localTag(b)) && !closestTag(b, FIGCAPTION) ? true : undefined)) === true;
const figures: ArticleRule = {
  name: "figures",
  apply(root) {
    // a picture's own box (layout elements around it with a short caption or credit) goes with it
    for (const img of [...root.querySelectorAll("img, picture, video")]) {
      let box: Element = img;
      for (let up = img.parentElement; up && up !== root && FIGURE_BOX.has(localTag(up)); up = up.parentElement) {
        if (wordCountOf(up) > 40 || holdsText(up)) break;
        box = up;
      }
      if (box !== img) removeGuarded(box, root);
    }
    for (const el of [...root.querySelectorAll("figure, figcaption, picture, img, video, audio, svg")]) el.remove();
    byName(root, FIGURE_NAMES, 80);
    byText(root, COUNTER, 6, true);
    byText(root, /^(?:image|photo|picture)\s+(?:copyright|caption|credit)\b|^\(?(?:image|photo|credit)s?\s*:/i, 40);
    // a caption left without its picture: short, and signed by a photo agency or credit
    byText(root, PHOTO_CREDIT, 12);
    byText(root, CAPTION_END, 45);
  },
};

// bylines and datelines: the author's name, the published and updated times, reading time
const META_NAMES = w(
  "dek|standfirst|strapline|subheadline|sub headline|article summary|kicker|byline|bylines|author|authors|author name|dateline|timestamp|date|dates|time|pubdate|published|updated|posted|post meta|entry meta|article meta|meta data|article info|post info|reading time|read time",
);
const MONTHS =
  "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december";
const DATE_WORD = new RegExp(
  `^(?:${MONTHS}|mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|am|pm|a|m|p|est|edt|cst|cdt|pst|pdt|gmt|utc|bst|cet|cest|ist|at|on|updated|published|posted|modified|first|last|de|à|às|le|el|am|um)$`,
  "i",
);
/** A short block that is a date and time, in any usual spelling: mostly numbers, month, weekday and zone words. */
function isDateLine(text: string): boolean {
  const tokens = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (tokens.length === 0 || tokens.length > 14 || !/\d/.test(text)) return false;
  const dateish = tokens.filter((t) => /\d/.test(t) || DATE_WORD.test(t)).length;
  return dateish / tokens.length >= 0.75;
}
// case matters for the name only: "By Jane Doe", not "by the harbour"
const BYLINE = /^(?:[Bb]y|[Ww]ritten by|[Ww]ords by|[Vv]on|[Pp]ar|[Pp]or|[Dd]i|[Dd]oor|[Aa]v)\s+(\p{Lu}[\p{L}.'’-]*)/u;
/** "By Jane Doe, Reuters", not a sentence that opens with "By March," or "By Tuesday the ferry…". */
function isByline(text: string): boolean {
  const m = BYLINE.exec(text);
  if (!m || DATE_WORD.test(m[1].replace(/\.$/, ""))) return false;
  return !(/[.!?]$/.test(text) && wordCount(text) >= 7);
}
const STAMP = /^(?:posted|published|updated|first published|last updated|modified|posted on|published on)\b/i;
const READING =
  /\b(?:\d+\s*(?:-|\s)?min(?:ute)?s?\s+read|reading time|read time|tempo de leitura|lesezeit|temps de lecture)\b/i;
const LONE_BY = /^(?:by|por|von|par|di|door|av)$/i;
const bylines: ArticleRule = {
  name: "bylines-datelines",
  apply(root) {
    byName(root, META_NAMES, 40);
    for (const el of [...root.querySelectorAll("address, [rel=author], [itemprop=author]")]) {
      if (wordCountOf(el) <= 40) removeGuarded(el, root);
    }
    for (const el of leafBlocks(root)) {
      if (closestTag(el, TABLE_OR_LIST)) continue;
      const words = wordCountOf(el);
      if (words === 0 || words > 20) continue;
      const text = textOf(el);
      if (isDateLine(text) || isByline(text) || (STAMP.test(text) && /\d/.test(text)) || READING.test(text))
        removeGuarded(el, root);
      else if (LONE_BY.test(text)) {
        // "By" in a block of its own, the name in the next one
        const next = el.nextElementSibling;
        if (next && wordCountOf(next) <= 6) removeGuarded(next, root);
        removeGuarded(el, root);
      }
    }
  },
};

// share bars and social follow prompts
const SHARE_NAMES = w(
  "share|shares|sharing|share bar|sharebar|social|social links|social share|addthis|sharethis|follow us",
);
const shareBars: ArticleRule = {
  name: "share-bars",
  apply(root) {
    byName(root, SHARE_NAMES, 60);
    byText(root, /\bshare (?:this|it|on)\b|^share$/i, 12);
  },
};

// related and recommended stories: blocks named so, headed so, labelled so, or made of nothing but links
const RELATED_NAMES = w(
  "related|related posts|related articles|related stories|related content|recommended|recommendations|recommend|read more|readmore|more stories|more news|trending|popular|most read|most popular|outbrain|taboola|recirc|also read|see also|further reading|jp relatedposts|yarpp|next article|up next|more from",
);
const RELATED_HEAD =
  /^(?:related(?: \w+)?|you (?:may|might) (?:also )?(?:like|enjoy)|more(?: \w+){0,3} (?:stories|news|articles|posts|coverage|from \S+)|more|read (?:more|next|also)|see (?:more|also)|also (?:read|see|on \S+)|don'?t miss|trending(?: now)?|popular(?: this week)?|most (?:read|popular|viewed|shared)|recent (?:articles|posts|stories)|latest (?:news|stories|articles)|recommended(?: for you)?|further reading|top stories|editor'?s picks)\W*$/i;
const RELATED_LABEL =
  /^\W*(?:related(?: \w+)?|read more|read also|also read|also|see more|see also|more|don'?t miss|watch|also on \S+|recommended|click here|lire aussi|à lire aussi|leia também|lesen sie auch|lee también|leggi anche)\s*[:|>»-]/i;

function removeHeadedBlock(heading: Element, root: Element): void {
  let next = heading.nextElementSibling;
  removeGuarded(heading, root);
  while (next && !isHeading(next)) {
    const after = next.nextElementSibling;
    // under such a heading, lists are other stories (their links may cover only part of each item)
    if (textLengthOf(next) > 0 && !LISTS.has(localTag(next)) && linkDensity(next) < 0.5) break;
    removeGuarded(next, root);
    next = after;
  }
}

const related: ArticleRule = {
  name: "related-blocks",
  apply(root) {
    byName(root, RELATED_NAMES);
    for (const el of [...root.querySelectorAll("h1, h2, h3, h4, h5, h6, p, div, strong, b")]) {
      if (!el.isConnected || (!isLeafBlock(el) && !isHeading(el))) continue;
      if (wordCountOf(el) <= 8 && RELATED_HEAD.test(textOf(el))) removeHeadedBlock(el, root);
    }
    for (const el of leafBlocks(root)) {
      if (linkDensity(el) > 0.4 && RELATED_LABEL.test(textOf(el))) removeGuarded(el, root);
    }
    // lists whose every item is a link, and paragraphs that are nothing but links: lists of other stories
    for (const list of [...root.querySelectorAll("ul, ol")]) {
      const items = [...list.children].filter((li) => textLengthOf(li) > 0);
      if (items.length >= 2 && items.every((li) => linkDensity(li) > 0.8)) removeGuarded(list, root);
    }
    // (a density above 0 means the block has text)
    for (const el of leafBlocks(root)) {
      if (localTag(el) !== "li" && linkDensity(el) > 0.9) removeGuarded(el, root);
    }
  },
};

// newsletter, subscription, app and cookie prompts; advertising slots
const PROMPT_NAMES = w(
  "newsletter|newsletters|subscribe|subscription|signup|sign up|optin|opt in|paywall|promo|promotion|cta|call to action|ad|ads|advert|advertisement|advertising|sponsored|sponsor|cookie|cookies|consent|inline promo|popup|popover|tooltip|rollover|hovercard|modal",
);
const PROMPT_TEXT =
  /\b(?:sign up|subscribe|newsletters?|inbox|follow (?:us|\S+ on)|download (?:the|our) app|get the \S+(?: \S+)? app|click here|join our|sign in to)\b/i;
const AD_WORD =
  /^(?:advertisement|advertising|advert|sponsored(?: content)?|anzeige|publicité|publicidad|pubblicità|publicidade|iklan|реклама|continue reading(?: below)?|skip to (?:main )?content|loading|processing\W*|this slideshow requires javascript\W*|caption|close|subscribe(?: now)?|post (?:a )?comment\W*)$/i;
const prompts: ArticleRule = {
  name: "prompts-and-ads",
  apply(root) {
    byName(root, PROMPT_NAMES, 80);
    byText(root, AD_WORD, 6, true);
    for (const el of leafBlocks(root)) {
      if (wordCountOf(el) > 40 || !PROMPT_TEXT.test(textOf(el))) continue;
      if (linkDensity(el) > 0 || el.querySelector("button")) removeGuarded(el, root);
    }
  },
};

// comment sections: named so, or everything from a "Comments" heading on
const COMMENT_NAMES = w("comment|comments|comment list|disqus|respond|replies|reply|discussion");
const COMMENT_HEAD =
  /^(?:\d+\s+)?(?:comments?|leave a (?:reply|comment)|post (?:a )?comment\W*|tell us what you think\W*|join the (?:conversation|discussion)|discussion|responses?)\W*$/i;
const comments: ArticleRule = {
  name: "comments",
  apply(root) {
    byName(root, COMMENT_NAMES);
    for (const el of [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")]) {
      if (!el.isConnected || !COMMENT_HEAD.test(textOf(el))) continue;
      let next = el.nextElementSibling;
      removeGuarded(el, root);
      while (next) {
        const after = next.nextElementSibling;
        removeGuarded(next, root);
        next = after;
      }
    }
  },
};

// the closing notes of news copy: who reported and edited, copyright lines
const CREDIT_LINE =
  /^\(?(?:(?:additional )?reporting by|writing by|editing by|compiled by)\b|\bcontributed (?:to )?(?:this )?report(?:ing)?\b|^(?:copyright|©|\(c\))|©\s*\d{4}|\ball rights reserved\b/i;
const TAGS_LINE =
  /^(?:filed under|tags?|tagged|topics?|categories|category|posted in|mots-clés|étiquettes|etiquetas|schlagwörter|themen|argomenti|tag)\s*:/i;
const closingNotes: ArticleRule = {
  name: "closing-notes",
  apply(root) {
    byText(root, CREDIT_LINE, 60);
    byText(root, TAGS_LINE, 40);
    // separator lines typed as text ("___", "* * *")
    for (const el of leafBlocks(root)) if (/^[\s_*=~\-–—.•·]+$/.test(el.textContent ?? "x")) el.remove();
  },
};

/** In the order they run; `skip` names the ones to leave out (the benchmark's ablation). */
export const ARTICLE_RULES: readonly ArticleRule[] = [
  comments,
  related,
  shareBars,
  prompts,
  figures,
  bylines,
  closingNotes,
];

export function applyArticleRules(root: Element, skip: ReadonlySet<string> = new Set()): void {
  for (const rule of ARTICLE_RULES) {
    if (skip.has(rule.name)) continue;
    rootWords.set(root, wordCountOf(root));
    rule.apply(root);
  }
  rootWords.delete(root);
}
