import { describe, expect, it } from "vitest";
import { HOSTILE, HOSTILE_KEPT, parseValidXml } from "../../../../test-support/xml-hostile.ts";
import { junitXml, xmlEscape } from "./junit.ts";

describe("xmlEscape", () => {
  it("drops the characters XML 1.0 forbids and escapes markup, keeping tab, LF, CR and astral characters", () => {
    expect(xmlEscape("a\u0000\u0001\u001fb\tc\nd\re\uFFFE\uFFFF\uD800f😀")).toBe("ab\tc\nd\ref😀");
    expect(xmlEscape(`]]> & "q" 'a' <x>`)).toBe("]]&gt; &amp; &quot;q&quot; &apos;a&apos; &lt;x&gt;");
  });
});

describe("junitXml", () => {
  it("writes valid XML whatever names and messages hold, and the parser reads them back", () => {
    const xml = junitXml({
      name: HOSTILE,
      suites: [
        {
          name: HOSTILE,
          timestamp: HOSTILE,
          properties: [[HOSTILE, HOSTILE]],
          cases: [
            {
              name: HOSTILE,
              classname: HOSTILE,
              seconds: 1.5,
              failure: { message: HOSTILE, type: HOSTILE, text: HOSTILE },
            },
            { name: "e", classname: "c", error: { message: HOSTILE } },
            { name: "s", classname: "c", skipped: HOSTILE, output: HOSTILE },
            { name: "p", classname: "c" },
          ],
        },
      ],
    });
    const doc = parseValidXml(xml) as {
      testsuites: { testsuite: { testcase: Array<Record<string, unknown>> } & Record<string, string> } & Record<
        string,
        string
      >;
    };
    const root = doc.testsuites;
    expect(root["@_tests"]).toBe("4");
    expect(root["@_failures"]).toBe("1");
    expect(root["@_errors"]).toBe("1");
    expect(root["@_skipped"]).toBe("1");
    expect(root["@_time"]).toBe("1.500");
    const first = root.testsuite.testcase[0] as { failure: { "#text": string; "@_message": string } };
    for (const kept of HOSTILE_KEPT) {
      expect(first.failure["#text"]).toContain(kept);
      expect(first.failure["@_message"]).toContain(kept);
    }
    // an attribute keeps its tab, LF and CR (as character references) and loses the forbidden characters
    expect(xml).toContain('message="a&#9;&#10;&#13;b');
  });
});
