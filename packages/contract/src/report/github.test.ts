// The one writer of GitHub workflow annotations (spec diff --format github, conform/gate/proxy --reporter github):
// what the runner reads back is what was meant, whatever the message holds.
import { describe, expect, it } from "vitest";
import { chosenReporter, escapeData, escapeProperty, githubAnnotation } from "./github.ts";

/** The runner's reading of a workflow command (@actions/toolkit's escaping, reversed). */
const CODES: Record<string, string> = { "%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": "," };
function readBack(s: string): string {
  return s.replace(/%(25|0D|0A|3A|2C)/g, (m) => CODES[m] as string);
}

describe("githubAnnotation", () => {
  it("writes level, file, line and title, and escapes %, CR and LF in the message, also : and , in properties", () => {
    const line = githubAnnotation({
      level: "error",
      file: "spec/a,b:c.yaml",
      line: 12,
      title: "rule: 100% off, now",
      message: "first line\r\nsecond: 50%, done",
    });
    expect(line).toBe(
      "::error file=spec/a%2Cb%3Ac.yaml,line=12,title=rule%3A 100%25 off%2C now::first line%0D%0Asecond: 50%25, done",
    );
    expect(line.split("\n")).toHaveLength(1);
    const [, props, message] = /^::error ([^:]*)::(.*)$/.exec(line) ?? [];
    expect(readBack(message)).toBe("first line\r\nsecond: 50%, done");
    const title =
      props
        .split(",")
        .find((p) => p.startsWith("title="))
        ?.slice(6) ?? "";
    expect(readBack(title)).toBe("rule: 100% off, now");
  });

  it("leaves out the properties not given", () => {
    expect(githubAnnotation({ level: "warning", message: "m" })).toBe("::warning::m");
    expect(githubAnnotation({ level: "notice", title: "t", message: "m" })).toBe("::notice title=t::m");
  });

  it("escapes a value already holding an escape sequence, so it reads back as written", () => {
    expect(readBack(escapeData("%0A"))).toBe("%0A");
    expect(readBack(escapeProperty("%2C,"))).toBe("%2C,");
  });
});

describe("the reporter", () => {
  it("is github under GitHub Actions unless text is asked for, text elsewhere", () => {
    expect(chosenReporter(undefined, { GITHUB_ACTIONS: "true" })).toBe("github");
    expect(chosenReporter("text", { GITHUB_ACTIONS: "true" })).toBe("text");
    expect(chosenReporter(undefined, {})).toBe("text");
    expect(chosenReporter("github", {})).toBe("github");
  });
});
