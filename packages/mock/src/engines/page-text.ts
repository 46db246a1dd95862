// Synthetic page text: Markdown as D-crawl-content describes it (headings, paragraphs, a list, a link), with
// no navigation, cookie banner or script text, about the words the page is named by.
import type { Rng } from "./rng.ts";
import { paragraph, sentence, slug, titleCase } from "./text.ts";
import { PAGE_SECTIONS } from "./vocabulary.ts";

export interface PageText {
  title: string;
  description: string;
  markdown: string;
}

/** A Markdown article titled `title` about `words`, linking to another page of `origin`. */
export function pageMarkdown(rng: Rng, title: string, words: readonly string[], origin: string): PageText {
  const topic = words.join(" ");
  const description = sentence(rng, topic);
  const parts = [`# ${title}`, `${description} ${paragraph(rng, topic, rng.int(1, 3))}`];
  for (const section of rng.sample(PAGE_SECTIONS, rng.int(1, 3))) {
    parts.push(`## ${section}`, paragraph(rng, topic, rng.int(2, 4)));
    if (rng.chance(0.6)) {
      const items = rng.sample(words.length > 1 ? words : [...words, "setup", "limits", "costs"], rng.int(2, 4));
      parts.push(items.map((w) => `- ${titleCase(w)}: ${sentence(rng, w)}`).join("\n"));
    }
  }
  const related = [...words].reverse().slice(0, 2);
  parts.push(`See also [${titleCase(related.join(" "))}](${origin}/${slug(related)}).`);
  return { title, description, markdown: parts.join("\n\n") };
}
