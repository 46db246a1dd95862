// The rule list and the docs page name the same rules (fastify keeps its error catalogue and docs in step so).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULES } from "../judge/rules.ts";

const doc = readFileSync(new URL("../../../../../docs/proxy.md", import.meta.url), "utf8");

describe("docs/proxy.md and the rule list", () => {
  it("the docs' rules table lists every rule, with its side and severity, and no other", () => {
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` \| (request|response) \| (critical|major|minor) \|/gm)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    expect(rows).toEqual(RULES.map((r) => [r.id, r.side, r.severity]));
  });
});
