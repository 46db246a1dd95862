// "Product folders hold product code; test glue, fixture sites and stand-ins live beside their tests or in
// test-support/" and "nothing in a product folder imports test-support/" (issue 25): a guard over the repository's
// sources (git ls-files, new files too). Test code is a *.test.ts file or anything in a folder named test/; the
// package's root entries count as product; bench/ (benchmarks that run on test glue) is neither. A file names
// another with any relative string literal (import, import(), new URL(…, import.meta.url), a spawned script),
// resolved against itself; a file in a product folder that only test code names is test glue in the wrong place.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// the published packages' sources (packages/bench is the repository's benchmarks, never published)
const PRODUCT = /^packages\/(?!bench\/)[^/]+\/src\//;
const isTest = (f: string) => /\.test\.ts$/.test(f) || /(^|\/)test\//.test(f);
const isProduct = (f: string) => PRODUCT.test(f) && !isTest(f);

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => /\.(ts|js|mjs|cjs)$/.test(f) && existsSync(join(ROOT, f)));
const known = new Set(files);

/** The repository files a source file names with a relative path (`./x.ts`, `../y/z.ts`). */
function namedIn(file: string, text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/["'`](\.{1,2}\/[^"'`\s$]*)["'`]/g)) {
    const path = posix.normalize(posix.join(dirname(file), m[1]));
    const candidates = [path, path.replace(/\.js$/, ".ts"), `${path}.ts`, `${path}/index.ts`];
    out.add(candidates.find((c) => known.has(c)) ?? path);
  }
  // another package's module, by name (@plumbline-kit/mock/start-mock)
  for (const m of text.matchAll(/["'`]@plumbline-kit\/([a-z-]+)(?:\/([^"'`\s$]*))?["'`]/g)) {
    const path = `packages/${m[1]}/src/${m[2] ?? "index"}`;
    const candidates = [`${path}.ts`, `${path}.js`, `${path}/index.ts`];
    out.add(candidates.find((c) => known.has(c)) ?? path);
  }
  return [...out];
}

const named = (file: string) => namedIn(file, readFileSync(join(ROOT, file), "utf8"));

/** Paths into test-support/ a file names: resolved relative paths, and any string naming test-support/ (a path
 * relative to the working directory, as a spawned `-e` script would take it). */
function testSupportNamedIn(file: string, text: string): string[] {
  const literal = [...text.matchAll(/["'`][^"'`\n]*\btest-support\/[^"'`\n]*["'`]/g)].map((m) => m[0]);
  return [...namedIn(file, text).filter((p) => p.startsWith("test-support/")), ...literal];
}

describe("product code and test glue", () => {
  it("scans the repository's sources", () => {
    expect(files.filter(isProduct).length).toBeGreaterThan(300);
  });

  it("no product file imports test-support/", () => {
    const offenders = files
      .filter(isProduct)
      .flatMap((f) => testSupportNamedIn(f, readFileSync(join(ROOT, f), "utf8")).map((p) => `${f} -> ${p}`));
    expect(offenders).toEqual([]);
  });

  it("no file in a product folder is test glue: each one some non-test code uses is named by non-test code", () => {
    const namers = new Map<string, string[]>();
    for (const f of files) for (const p of named(f)) namers.set(p, [...(namers.get(p) ?? []), f]);
    // a file nothing names is an entry point (a worker thread's script, a declaration file); a package's entry
    // points are named by its package.json
    const offenders = files
      .filter(isProduct)
      .filter((f) => !/^packages\/[^/]+\/src\/(index\.(ts|js)|msw\/index\.ts)$/.test(f))
      .filter((f) => (namers.get(f) ?? []).length > 0 && (namers.get(f) ?? []).every(isTest))
      .map((f) => `${f} (only named by ${namers.get(f)?.join(", ")})`);
    expect(offenders).toEqual([]);
  });

  it("sees every way a file names another, and tells test code from product code", () => {
    const planted = [
      'import { startS3StandIn } from "../../../../test-support/s3-stand-in.ts";',
      "const site = await import('../../../../test-support/deepcrawl-site.ts');",
      'const url = new URL("../../../../test-support/postgres-schema.ts", import.meta.url);',
      'import type { Route } from "../test/fixture-site.ts";',
    ].join("\n");
    expect(namedIn("packages/reference/src/deepcrawl/planted.ts", planted).sort()).toEqual([
      "packages/reference/src/test/fixture-site.ts",
      "test-support/deepcrawl-site.ts",
      "test-support/postgres-schema.ts",
      "test-support/s3-stand-in.ts",
    ]);
    const spawned = `spawn(process.execPath, ["-e", 'import("./test-support/s3-stand-in.ts")'])`;
    expect(testSupportNamedIn("packages/reference/src/deepcrawl/planted.ts", spawned)).toEqual([
      '"./test-support/s3-stand-in.ts"',
    ]);
    const comment = "// checked by test-support/package-entry.test.ts";
    expect(testSupportNamedIn("packages/reference/src/deepcrawl/planted.ts", comment)).toEqual([]);
    expect(isProduct("packages/reference/src/deepcrawl/planted.ts")).toBe(true);
    expect(isProduct("packages/mock/src/index.ts")).toBe(true);
    expect(isProduct("packages/reference/src/test/fixture-site.ts")).toBe(false);
    expect(isProduct("packages/reference/src/deepcrawl/deepcrawl.test.ts")).toBe(false);
    expect(isProduct("packages/bench/src/deepcrawl-bench.ts")).toBe(false);
  });
});

// Each package works alone (issue 36): what its shipped code imports is declared in its own package.json (a
// dependency, or an optional peer whose absence the code reports by name), never a devDependency of the
// repository; and the layers call one way: contract <- platform <- mock, reference; contract <- tools (the proxy's
// hybrid mode loads the mock, an optional peer, only when asked); the cli loads each command's package when it runs.
const BUILTIN = new Set(builtinModules);
const LAYERS: Record<string, string[]> = {
  contract: [],
  cli: ["mock", "tools", "reference", "bench"],
  platform: ["contract"],
  mock: ["contract", "platform", "cli"],
  tools: ["contract", "cli", "mock"],
  reference: ["contract", "platform", "cli"],
};

/** The bare specifiers (packages) a source file imports, statically or dynamically. */
function packagesImported(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)["']([^"'./][^"']*)["']/gm)) {
    const s = m[1];
    if (s.startsWith("node:") || BUILTIN.has(s.split("/")[0])) continue;
    out.add(s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]);
  }
  return [...out];
}

describe("the packages", () => {
  const manifests = Object.keys(LAYERS).map((name) => ({
    name,
    manifest: JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    },
  }));

  it("import only what their own package.json declares (no devDependency in shipped code)", () => {
    const offenders = manifests.flatMap(({ name, manifest }) => {
      const declared = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      return (
        files
          .filter((f) => f.startsWith(`packages/${name}/src/`) && isProduct(f) && !/-worker\.mjs$/.test(f))
          // the payment SDK is bundled into the built contract (packages/contract/src/vendor/mppx.ts)
          .filter((f) => !f.startsWith("packages/contract/src/vendor/"))
          .flatMap((f) =>
            packagesImported(readFileSync(join(ROOT, f), "utf8"))
              // k6's modules in the k6 scripts load export writes; HAR's types come from @types/har-format
              .filter((p) => p !== "k6" && !(p === "har-format" && declared.has("@types/har-format")))
              // the benchmarks are the repository's own (never published): the cli says so when they are absent
              .filter((p) => !(name === "cli" && p === "@plumbline-kit/bench"))
              // a repository tool: the installed `spec types` prints the types the contract ships instead
              .filter((p) => !(f === "packages/tools/src/spec/types-gen.ts" && p === "openapi-typescript"))
              .filter((p) => p !== `@plumbline-kit/${name}` && !declared.has(p))
              .map((p) => `${f} -> ${p}`),
          )
      );
    });
    expect(offenders).toEqual([]);
  });

  it("call one way: each package imports only the layers below it", () => {
    const offenders = manifests.flatMap(({ name }) =>
      files
        .filter((f) => f.startsWith(`packages/${name}/src/`) && isProduct(f))
        .flatMap((f) =>
          packagesImported(readFileSync(join(ROOT, f), "utf8"))
            .filter((p) => p.startsWith("@plumbline-kit/"))
            .map((p) => p.slice("@plumbline-kit/".length))
            .filter((p) => p !== name && !LAYERS[name].includes(p))
            .map((p) => `${f} -> @plumbline-kit/${p}`),
        ),
    );
    expect(offenders).toEqual([]);
    // the client tools reach the mock only through the proxy's hybrid mode
    const toolsToMock = files.filter(
      (f) =>
        f.startsWith("packages/tools/src/") &&
        isProduct(f) &&
        readFileSync(join(ROOT, f), "utf8").includes("@plumbline-kit/mock"),
    );
    expect(
      toolsToMock.filter((f) => !/proxy\/(hybrid-mock|start-proxy)\.ts$|load\/peers\/peer-processes\.ts$/.test(f)),
    ).toEqual([]);
  });

  it("ship no test, fixture of the repository's tests, or benchmark", () => {
    for (const { name, manifest } of manifests) {
      expect((manifest as { files?: string[] }).files, name).toEqual(["dist"]);
    }
    expect(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")).toMatch(/"\*\*\/\*\.test\.ts", "\*\*\/test\/\*\*"/);
  });
});
