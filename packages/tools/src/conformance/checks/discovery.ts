// Discovery documents (interface-spec "Discovery endpoints"; RFC 9728) and the health body (D-health).
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import type { CheckDefinition, Failure } from "../types.ts";
import { namesResourceMetadata } from "./auth.ts";

const openapi: CheckDefinition = {
  id: "discovery-openapi-json",
  title: "GET /openapi.json serves the interface description: version 1.0.0 and every operation's path",
  severity: "major",
  section: "Discovery endpoints; Versioning",
  basis: { kind: "contract" },
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "GET", "/openapi.json", { auth: "none" });
    const doc = json<{ openapi?: unknown; info?: { version?: unknown }; paths?: Record<string, unknown> }>(ex);
    if (status(ex) !== 200 || !doc)
      return { failures: [failure("no JSON document at /openapi.json", [ex], "200 JSON", describe(ex))] };
    const failures: Failure[] = [];
    if (typeof doc.openapi !== "string" || !doc.openapi.startsWith("3."))
      failures.push(failure("not an OpenAPI 3 document", [ex], "openapi: 3.x", String(doc.openapi)));
    if (doc.info?.version !== ctx.contract.version)
      failures.push(
        failure(
          "info.version differs from the interface version",
          [ex],
          ctx.contract.version,
          String(doc.info?.version),
        ),
      );
    const missing = ctx.contract.contractOperations
      .filter((o) => ctx.scope.has(o.operationId))
      .map((o) => o.path)
      .filter((p) => !doc.paths?.[p]);
    if (missing.length)
      failures.push(failure("paths missing from the document", [ex], "every contract path", missing.join(", ")));
    return { failures };
  },
};

const resourceMetadata: CheckDefinition = {
  id: "discovery-protected-resource",
  title: "The protected-resource metadata is served with its authorization servers, and the 401 challenge points to it",
  severity: "major",
  section: "Authentication 4; Discovery endpoints",
  basis: { kind: "contract" },
  async run(ctx) {
    const failures: Failure[] = [];
    const ex = await ctx.http.call(this.id, "GET", "/.well-known/oauth-protected-resource", { auth: "none" });
    const doc = json<{ resource?: unknown; authorization_servers?: unknown }>(ex);
    if (status(ex) !== 200 || !doc)
      failures.push(failure("metadata document not served", [ex], "200 JSON", describe(ex)));
    else if (typeof doc.resource !== "string" || !Array.isArray(doc.authorization_servers))
      failures.push(
        failure("metadata lacks resource or authorization_servers", [ex], "RFC 9728 members", ex.response?.text),
      );
    // D-authorization-server: an empty list is honest for a target without one (oauth-discovery then skips)
    const notes =
      Array.isArray(doc?.authorization_servers) && doc.authorization_servers.length === 0
        ? ["the metadata names no authorization server: OAuth clients cannot obtain a token here"]
        : [];
    const challenge = await ctx.http.call(this.id, "GET", "/usage", {
      auth: { bearer: "plumbline-conformance-invalid-credential" },
    });
    const url = /resource_metadata="([^"]+)"/.exec(challenge.response?.headers["www-authenticate"] ?? "")?.[1];
    if (!namesResourceMetadata(challenge) || !url)
      failures.push(
        failure(
          "the 401 challenge names no resource_metadata",
          [challenge],
          'resource_metadata="…"',
          describe(challenge),
        ),
      );
    else if (!url.endsWith("/.well-known/oauth-protected-resource"))
      failures.push(
        failure(
          "resource_metadata is not the REST metadata address",
          [challenge],
          "{base_url}/.well-known/oauth-protected-resource",
          url,
        ),
      );
    return failures.length ? { failures, notes } : ok(notes);
  },
};

const healthBody: CheckDefinition = {
  id: "health-status-version",
  title: "GET /health answers status ok and the interface version",
  severity: "minor",
  section: "GET /health; Versioning",
  basis: { kind: "decision", decision: "D-health" },
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "GET", "/health", { auth: "none" });
    const body = json<{ status?: unknown; version?: unknown }>(ex);
    if (body?.status === "ok" && body.version === ctx.contract.version) return ok();
    return {
      failures: [
        failure(
          "unexpected health body",
          [ex],
          `{status: "ok", version: "${ctx.contract.version}"}`,
          ex.response?.text ?? describe(ex),
        ),
      ],
    };
  },
};

export const DISCOVERY_CHECKS = [openapi, resourceMetadata, healthBody];
