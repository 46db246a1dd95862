// GET / on the mock and the reference: not a contract operation (the interface lists none at `/`, and the document
// has no path for it), only a pointer for a person who opens the server's address: a small HTML page for a
// browser, JSON otherwise (by Accept), naming /docs, /openapi.json and /health. Everything else unknown still
// answers 404 in the contract's error shape.

import type { Contract } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { escapeHtml } from "./docs-html.ts";
import { baseUrlOf } from "./request-state.ts";

/** The weight (q) Accept gives a media type: its own entry, else its type's `type/*`, else `*\/*`; 0 when absent. */
function weight(accept: string, type: string): number {
  const [major] = type.split("/");
  let best = { rank: -1, q: 0 };
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const rank = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (rank <= best.rank) continue;
    const q = Number(/^\s*q=([\d.]+)\s*$/.exec(params.find((p) => /^\s*q=/.test(p)) ?? "")?.[1] ?? 1);
    best = { rank, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/** A browser (it prefers text/html to JSON) gets the page; curl (any type) and clients asking for JSON get JSON. */
export function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? "";
  return weight(accept, "text/html") > weight(accept, "application/json");
}

export function rootLinks(base: string) {
  return { docs: `${base}/docs`, openapi: `${base}/openapi.json`, health: `${base}/health` };
}

export function rootRoute(app: FastifyInstance, o: { contract: Contract; publicUrl?: string }) {
  const title = o.contract.raw.info.title;
  const version = o.contract.raw.info.version;
  app.get("/", async (req, reply) => {
    const links = rootLinks(baseUrlOf(req, o.publicUrl));
    reply.header("vary", "Accept");
    if (!wantsHtml(req)) return { name: title, version, ...links };
    const item = (href: string, what: string) =>
      `<li><a href="${escapeHtml(href)}">${escapeHtml(href)}</a>: ${what}</li>`;
    return reply
      .type("text/html; charset=utf-8")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
          `<style>body{font:15px/1.55 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1f2328}a{color:#0969da}</style></head>` +
          `<body><h1>${escapeHtml(title)}</h1><p>Interface version ${escapeHtml(version)}. This address is the API's base URL; its operations are listed in:</p><ul>` +
          item(links.docs, "the reference page (every operation, its parameters, prices and errors)") +
          item(links.openapi, "the OpenAPI 3.1 document") +
          item(links.health, "the uptime check") +
          "</ul></body></html>",
      );
  });
}
