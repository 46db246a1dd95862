// proxy/ is a client: it talks HTTP to its upstreams and shares only the contract package. The one exception is the
// hybrid mode's composition module, which starts the mock through its public API and is loaded only on demand.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "test") return [];
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

const imports = (text: string) => [...text.matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)].map((m) => m[1]);

describe("the proxy's boundary", () => {
  it("no product file of proxy/ imports mock/ or reference/, but the hybrid composition module", () => {
    const offenders = sources(ROOT).flatMap((file) =>
      imports(readFileSync(file, "utf8"))
        .filter((p) => /^@plumbline-kit\/(mock|reference|platform)(\/|$)|\/(mock|reference|platform)\//.test(p))
        .map((p) => `${relative(ROOT, file)} -> ${p}`),
    );
    expect(offenders).toEqual(["hybrid-mock.ts -> @plumbline-kit/mock/start-mock"]);
  });

  it("the hybrid module is imported dynamically only, so a plain proxy loads no mock code", () => {
    const staticImports = sources(ROOT).filter((file) =>
      /^import\s[^;]*from\s+["']\.\/hybrid-mock\.ts["']/m.test(
        readFileSync(file, "utf8").replace(/^import type .*$/gm, ""),
      ),
    );
    expect(staticImports).toEqual([]);
    expect(readFileSync(join(ROOT, "start-proxy.ts"), "utf8")).toContain('await import("./hybrid-mock.ts")');
  });
});
