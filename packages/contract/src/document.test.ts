// The document itself: valid OpenAPI 3.1, lint-clean, its examples valid, its derived files in sync.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DECISIONS_PATH } from "@plumbline-kit/tools/spec/cli";
import { lintDocument } from "@plumbline-kit/tools/spec/lint";
import { generateTypes, TYPES_PATH } from "@plumbline-kit/tools/spec/types-gen";
import { beforeAll, describe, expect, it } from "vitest";
import { decisionReferences, renderDecisionsPage } from "./decisions.ts";
import {
  CONTRACT_VERSIONS,
  checkedDereferenced,
  checkedDocumentPath,
  contractPath,
  dereferenceDocument,
  documentDigest,
  type OpenApiDocument,
  readCheckedCopy,
  readCheckedDocument,
  readRawDocument,
} from "./document.ts";
import { type Contract, ERROR_CATALOGUE, loadContract } from "./index.ts";
import { applyProfile, PROFILE_NAMES, profileNames } from "./profiles.ts";

let c: Contract;
beforeAll(async () => {
  c = await loadContract();
});

type Obj = Record<string, unknown>;

describe("spec/openapi.yaml", () => {
  it("is a valid OpenAPI 3.1.0 document with the contract's 11 operations", () => {
    expect(c.document.openapi).toBe("3.1.0");
    expect(c.version).toBe("1.0.0");
    expect(c.contractOperations.map((o) => o.operationId).sort()).toEqual(
      [
        "crawl",
        "deepcrawl",
        "deepcrawlStatus",
        "extract",
        "health",
        "news",
        "screenshot",
        "search",
        "sitemap",
        "trending",
        "usage",
      ].sort(),
    );
    expect(c.operations.filter((o) => o.discovery).map((o) => o.path)).toEqual([
      "/openapi.json",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/api-catalog",
      "/.well-known/mcp/server-card.json",
      "/.well-known/agent-skills/index.json",
      "/.well-known/agent-skills/web-search-crawl-extract/SKILL.md",
    ]);
  });

  it("passes Redocly's recommended rules without an error or warning", async () => {
    expect(await lintDocument()).toEqual([]);
  }, 90_000);

  it("has a request example for every request body and one for every JSON response", () => {
    for (const op of c.operations) {
      if (op.requestSchema) expect(Object.keys(op.requestExamples).length, op.operationId).toBeGreaterThan(0);
    }
    const raw = c.document.paths as Obj;
    for (const [path, item] of Object.entries(raw)) {
      for (const [method, op] of Object.entries(item as Obj)) {
        for (const [status, res] of Object.entries((op as Obj).responses as Obj)) {
          for (const [ct, media] of Object.entries(((res as Obj).content ?? {}) as Obj)) {
            if (!ct.includes("json") || path === "/openapi.json") continue;
            const m = media as Obj;
            expect(m.examples ?? m.example, `${method} ${path} ${status} ${ct}`).toBeDefined();
          }
        }
      }
    }
  });

  it("has examples that validate against their schemas", () => {
    const failures: string[] = [];
    for (const op of c.operations) {
      for (const [name, value] of Object.entries(op.requestExamples)) {
        const r = c.validators.checkBody(op.operationId, value);
        if (!r.ok) failures.push(`${op.operationId} request example ${name}: ${JSON.stringify(r)}`);
      }
      const pathItem = (c.document.paths as Obj)[op.path] as Obj;
      const responses = (pathItem[op.method] as Obj).responses as Obj;
      for (const [status, res] of Object.entries(responses)) {
        for (const [ct, media] of Object.entries(((res as Obj).content ?? {}) as Obj)) {
          for (const [name, ex] of Object.entries(((media as Obj).examples ?? {}) as Obj)) {
            const errors = c.validators.checkResponse(op.operationId, Number(status), ct, (ex as Obj).value);
            if (errors) failures.push(`${op.operationId} ${status} example ${name}: ${JSON.stringify(errors)}`);
          }
        }
      }
      for (const p of op.parameters) {
        const example = (
          ((c.document.paths as Obj)[op.path] as Obj)[op.method] as { parameters: Array<{ example?: unknown }> }
        ).parameters.find((x) => x.example !== undefined)?.example;
        if (
          example !== undefined &&
          !c.validators.checkParameters(op.operationId, { [p.in]: { [p.name]: example } }).ok
        ) {
          failures.push(`${op.operationId} parameter ${p.name} example`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("resolves every x-decision reference to a decision, and uses every decision", () => {
    const raw = readRawDocument();
    const ids = new Set(c.decisions.map((d) => d.id));
    const refs = decisionReferences(raw);
    expect(refs.filter((r) => !ids.has(r.id))).toEqual([]);
    // decisions referenced only in prose are named as D-… in a description
    const text = JSON.stringify({ ...raw, "x-decisions": undefined });
    expect(c.decisions.filter((d) => !text.includes(d.id)).map((d) => d.id)).toEqual([]);
    for (const d of c.decisions) {
      for (const key of ["topic", "contract", "decision", "reason"] as const)
        expect(d[key], `${d.id}.${key}`).toBeTruthy();
    }
  });

  it("declares the discovery and rate-limit headers the decisions name", () => {
    for (const op of c.operations) {
      for (const [status, res] of op.responses) {
        expect(Object.keys(res.headers), `${op.operationId} ${status}`).toEqual(
          expect.arrayContaining(["x-request-id", "link"]),
        );
        if (status === 401) expect(res.headers["www-authenticate"]?.required).toBe(true);
        if (status === 402)
          expect(Object.keys(res.headers)).toEqual(expect.arrayContaining(["www-authenticate", "cache-control"]));
        if (status === 429)
          expect(Object.keys(res.headers)).toEqual(
            expect.arrayContaining(["retry-after", "ratelimit", "ratelimit-policy"]),
          );
      }
    }
  });
});

describe("the bound profiles", () => {
  it("are the ones the command line offers (spec --profile, mock --profile)", () => {
    expect(profileNames(readRawDocument())).toEqual([...PROFILE_NAMES]);
  });
});

describe("files derived from the document", () => {
  it("spec/types.gen.ts is what openapi-typescript generates now", async () => {
    expect(readFileSync(TYPES_PATH, "utf8")).toBe(await generateTypes());
  }, 90_000);

  it("spec/DECISIONS.md is what the decisions and the error catalogue render to", () => {
    const page = readFileSync(DECISIONS_PATH, "utf8");
    expect(page).toBe(renderDecisionsPage(readRawDocument()));
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(page).toContain(`\`${code}\``);
    for (const d of c.decisions) expect(page).toContain(`## ${d.id}:`);
  });
});

describe("the build's checked copy of a document (NAME.checked.json, tools/build.js)", () => {
  it("is what the build wrote beside each bundled document of dist/, naming its YAML by digest", () => {
    for (const version of CONTRACT_VERSIONS) {
      const built = contractPath(version).replace(/\/src\//, "/dist/");
      const checked = readCheckedDocument(built);
      expect(checked, `${checkedDocumentPath(built)}: run npm run build`).toBeDefined();
      expect(checked).toEqual(readRawDocument(built));
    }
  });

  it("holds each profile dereferenced as the OpenAPI parser does it, each $ref's target one shared object", async () => {
    for (const version of CONTRACT_VERSIONS) {
      const built = contractPath(version).replace(/\/src\//, "/dist/");
      const raw = readRawDocument(built);
      const copy = readCheckedCopy(built);
      expect(copy, `${checkedDocumentPath(built)}: run npm run build`).toBeDefined();
      for (const profile of profileNames(raw)) {
        const stored = copy && checkedDereferenced(copy, profile);
        const parsed = await dereferenceDocument(applyProfile(raw, profile));
        expect(stored, `${version} ${profile}`).toEqual(parsed);
        // two places referring to one schema get one object, as from the parser (checked on the ErrorResponse
        // every operation's 400 answers with)
        const errorSchema = (doc: OpenApiDocument, path: string) =>
          (doc.paths?.[path]?.post?.responses?.["400"] as { content: Record<string, { schema: unknown }> })?.content[
            "application/json"
          ]?.schema;
        const a = errorSchema(stored as OpenApiDocument, "/search");
        expect(a).toBeDefined();
        expect(a).toBe(errorSchema(stored as OpenApiDocument, "/crawl"));
        expect(errorSchema(parsed, "/search")).toBe(errorSchema(parsed, "/crawl"));
      }
    }
  });

  it("is read when its digest is the YAML's, and ignored once the YAML changed or when there is none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-checked-"));
    try {
      const path = join(dir, "openapi.yaml");
      copyFileSync(contractPath("seed"), path);
      expect(readCheckedDocument(path)).toBeUndefined();
      const doc = readRawDocument(path);
      writeFileSync(
        checkedDocumentPath(path),
        JSON.stringify({ sha256: documentDigest(readFileSync(path)), document: doc }),
      );
      expect(readCheckedDocument(path)).toEqual(doc);
      // the document a command then serves is the checked copy's: one changed only there shows it was read
      const marked = { ...doc, info: { ...doc.info, title: "from the checked copy" } };
      writeFileSync(
        checkedDocumentPath(path),
        JSON.stringify({ sha256: documentDigest(readFileSync(path)), document: marked }),
      );
      expect((await loadContract({ path })).raw.info.title).toBe("from the checked copy");
      // an edited YAML is read (and validated) again, whatever the copy beside it says
      const edited = join(dir, "edited.yaml");
      writeFileSync(edited, readFileSync(path, "utf8").replace(/^(\s+title:\s*).*$/m, "$1Edited since"));
      copyFileSync(checkedDocumentPath(path), checkedDocumentPath(edited));
      expect(readCheckedDocument(edited)).toBeUndefined();
      expect((await loadContract({ path: edited })).raw.info.title).toBe("Edited since");
      // a document of the user's is compiled whole where it is loaded: a pattern that is no regular expression fails
      // there, not as an error at the request that first meets it
      const broken = join(dir, "broken.yaml");
      writeFileSync(broken, readFileSync(path, "utf8").replace(`pattern: "Payment "`, `pattern: "Payment ["`));
      await expect(loadContract({ path: broken })).rejects.toThrow(/Payment \[|regular expression|pattern/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
