// Text no XML report may choke on, and the check that one did not: the file must pass fast-xml-parser's validator
// and parse back. Used by the JUnit tests of the shared writer, the gate, the conformance suite and the proxy.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";

const controls = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join("");

/** Every C0 control (tab, LF, CR included), U+FFFE, U+FFFF, both lone surrogates, `]]>`, quotes, ampersands, markup. */
export const HOSTILE = `a${controls}b\uFFFE\uFFFFc\uD800d\uDFFFe]]>f"g'h&i&amp;j<k/>l<![CDATA[m]]>😀`;

/** The parts of HOSTILE that must survive (the characters XML forbids are dropped, nothing else). */
export const HOSTILE_KEPT = ["]]>f", `"g'h&i&amp;j<k/>l<![CDATA[m]]>😀`];

/** XML 1.0's Char production, §2.2, read code unit by code unit (a lone surrogate is not a character). */
function forbiddenCharacters(xml: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < xml.length) {
      const next = xml.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    const ok = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd);
    if (!ok) found.push(`U+${c.toString(16).toUpperCase().padStart(4, "0")} at ${i}`);
  }
  return found;
}

/**
 * Asserts the text is well-formed XML and returns it parsed (attributes under `@_`). fast-xml-parser's validator
 * checks the markup but not the characters, so the Char production and the `]]>` rule (§2.4: not in character
 * data; the writers emit no CDATA section) are checked here too.
 */
export function parseValidXml(xml: string): Record<string, unknown> {
  expect(forbiddenCharacters(xml)).toEqual([]);
  expect(xml).not.toContain("]]>");
  expect(XMLValidator.validate(xml)).toBe(true);
  return new XMLParser({ ignoreAttributes: false, parseTagValue: false, processEntities: true }).parse(xml);
}
