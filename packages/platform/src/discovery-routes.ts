// Discovery documents (interface-spec "Discovery endpoints"): the interface description, the RFC 9728
// protected-resource metadata, and a readable reference page at /docs.
import type { FastifyInstance } from "fastify";
import { renderDocsPage } from "./docs-page.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { baseUrlOf } from "./request-state.ts";
import { rootRoute } from "./root-page.ts";

export function discoveryRoutes(app: FastifyInstance, o: PlatformOptions) {
  const docsHtml = renderDocsPage(o.contract);

  app.get("/openapi.json", { config: { operationId: "getOpenApiDocument" } }, async (req) => ({
    ...o.contract.raw,
    servers: [{ url: baseUrlOf(req, o.publicUrl), description: "this server" }],
  }));

  app.get(
    "/.well-known/oauth-protected-resource",
    { config: { operationId: "getProtectedResourceMetadata" } },
    async (req) => {
      const base = baseUrlOf(req, o.publicUrl);
      const as = o.authorizationServer;
      return {
        resource: base,
        // D-authorization-server: name an authorization server only when there is one; the member is required
        authorization_servers: as === undefined ? [] : [as === "self" ? base : as.replace(/\/$/, "")],
        bearer_methods_supported: ["header"],
        scopes_supported: ["openid", "offline_access"],
        resource_documentation: `${base}/docs`,
      };
    },
  );

  app.get("/docs", async (_req, reply) => reply.type("text/html; charset=utf-8").send(docsHtml));
  // a person opening the server's address: pointed to the three above (not a contract operation)
  rootRoute(app, o);
}
