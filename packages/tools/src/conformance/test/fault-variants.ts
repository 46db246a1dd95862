// The seeded faults the conformance suite must catch: each variant breaks one behaviour of a correct target (the
// mock) through the fault proxy (fault-proxy.ts) and names the check that owns that behaviour. Read by the suite's
// own test (fault-injection.test.ts) and by `plumbline bench proxy-catch` (what the proxy notices of the same faults).
import { strFromU8, strToU8, unzipSync, type Zippable, zipSync } from "fflate";
import sharp from "sharp";
import { type Fault, jsonOf, type ProxiedRequest, type ProxiedResponse, withJson } from "./fault-proxy.ts";

type Json = Record<string, unknown>;
const isBatch = (req: ProxiedRequest) => req.body.length > 0 && req.body.toString().trimStart().startsWith("[");
export const post = (req: ProxiedRequest, path: string) => req.method === "POST" && req.path === path;
const form = (req: ProxiedRequest) => Object.fromEntries(new URLSearchParams(req.body.toString("utf8")));
const sent = (req: ProxiedRequest) => JSON.parse(req.body.toString("utf8")) as Json;
const ok200 = (req: ProxiedRequest, res: ProxiedResponse, path: string) => post(req, path) && res.status === 200;
export const paymentCredential = (req: ProxiedRequest) => /^Payment /.test(String(req.headers.authorization ?? ""));
const mcpMethod = (req: ProxiedRequest, method: string) => req.body.toString("utf8").includes(`"method":"${method}"`);
// zipUrl is a signed link: the path ends in .zip, the query carries the signature
const isZip = (req: ProxiedRequest, res: ProxiedResponse) =>
  req.path.split("?")[0].endsWith(".zip") && res.status === 200;

/** A zip answer rebuilt after `edit` changed its entries. */
function rezip(res: ProxiedResponse, edit: (files: Record<string, Uint8Array>) => void): ProxiedResponse {
  const files = unzipSync(new Uint8Array(res.body));
  edit(files);
  return { ...res, body: Buffer.from(zipSync(files as Zippable)) };
}

export interface Variant {
  name: string;
  fault: Fault;
  only: string[];
  fails: string;
  /** other checks of `only` that judge the same broken behaviour and must fail too */
  alsoFails?: string[];
}

/** The variants, each time with fresh state (two of them count what they have seen: downloads, finished tasks). */
export function faultVariants(): Variant[] {
  return [
    {
      name: "a batch summary that does not add up",
      fault: {
        rewrite: (req, res) => {
          if (!post(req, "/search") || !isBatch(req) || res.status !== 200) return res;
          const b = jsonOf(res) as { summary: Json };
          return withJson(res, { ...b, summary: { ...b.summary, totalCost: Number(b.summary.totalCost) + 1 } });
        },
      },
      only: ["billing-batch-cost", "batch-summary-arithmetic"],
      fails: "batch-summary-arithmetic",
      // totalCost is also compared with the balance drop
      alsoFails: ["billing-batch-cost"],
    },
    {
      name: "batch entries in reverse order",
      fault: {
        rewrite: (req, res) => {
          if (!post(req, "/search") || !isBatch(req) || res.status !== 200) return res;
          const b = jsonOf(res) as { results: unknown[] };
          return withJson(res, { ...b, results: [...b.results].reverse() });
        },
      },
      only: ["batch-entries-match-request"],
      fails: "batch-entries-match-request",
    },
    {
      name: "no x-request-id",
      fault: { rewrite: (_req, res) => ({ ...res, headers: { ...res.headers, "x-request-id": undefined } }) },
      only: ["health-status-version", "x-request-id"],
      fails: "x-request-id",
    },
    {
      name: "deepcrawl answering 200 instead of 202",
      fault: { rewrite: (req, res) => (post(req, "/deepcrawl") && res.status === 202 ? { ...res, status: 200 } : res) },
      only: ["deepcrawl-accepted-queued", "response-status-listed"],
      fails: "deepcrawl-accepted-queued",
      // 200 is not among the statuses POST /deepcrawl lists
      alsoFails: ["response-status-listed"],
    },
    {
      // issue 27: the balance is checked on every paid operation, not only the one the check used to call
      name: "news served to an empty account",
      fault: {
        rewrite: (req, res) =>
          post(req, "/news") && req.headers.authorization === "Bearer BROKE" && res.status === 402
            ? withJson(
                { ...res, status: 200, headers: { "content-type": "application/json" } },
                {
                  results: [],
                  searchParameters: sent(req),
                },
              )
            : res,
      },
      only: ["billing-zero-balance-402"],
      fails: "billing-zero-balance-402",
    },
    {
      name: "every crawl charged twice",
      fault: { duplicate: (req) => post(req, "/crawl") && !isBatch(req) },
      only: ["billing-price-per-operation"],
      fails: "billing-price-per-operation",
    },
    {
      name: "out-of-range values accepted (422 turned into 200)",
      fault: {
        rewrite: (_req, res) => (res.status === 422 ? withJson({ ...res, status: 200 }, { results: [] }) : res),
      },
      only: ["bounds-past-rejected"],
      fails: "bounds-past-rejected",
    },
    {
      // a target that validates news with the search schema: it takes search's `page` (issue 35); the request reaches
      // the mock without it, so whatever else the body holds is still judged
      name: "news accepting page, a field of search",
      fault: {
        request: (req) => {
          if (!post(req, "/news") || isBatch(req) || !("page" in sent(req))) return req;
          const { page: _page, ...rest } = sent(req);
          return { ...req, body: Buffer.from(JSON.stringify(rest)) };
        },
      },
      only: ["bounds-past-rejected", "bounds-rejection-names-field"],
      fails: "bounds-past-rejected",
      // the answer (200) names no field either
      alsoFails: ["bounds-rejection-names-field"],
    },
    {
      name: "rejected calls charged",
      fault: {
        sideCall: (req, res) =>
          res.status === 422 && req.headers.authorization
            ? {
                method: "POST",
                path: "/trending",
                headers: { ...req.headers, "content-type": "application/json" },
                body: Buffer.from('{"search_service":"github"}'),
              }
            : null,
      },
      only: ["billing-rejected-free"],
      fails: "billing-rejected-free",
    },
    {
      name: "status polling charged",
      fault: {
        sideCall: (req) =>
          req.method === "GET" && req.path.startsWith("/deepcrawl/status/dc_") && req.headers.authorization
            ? {
                method: "POST",
                path: "/trending",
                headers: { ...req.headers, "content-type": "application/json" },
                body: Buffer.from('{"search_service":"github"}'),
              }
            : null,
      },
      only: ["deepcrawl-polling-free"],
      fails: "deepcrawl-polling-free",
    },
    {
      name: "a corrupt zip",
      fault: {
        rewrite: (req, res) => {
          if (!isZip(req, res)) return res;
          const body = Buffer.from(res.body);
          body.fill(0x42, 30, Math.min(body.length, 400));
          return { ...res, body };
        },
      },
      only: ["deepcrawl-zip-valid"],
      fails: "deepcrawl-zip-valid",
    },
    {
      name: "401 without resource_metadata",
      fault: {
        rewrite: (_req, res) =>
          res.status === 401 ? { ...res, headers: { ...res.headers, "www-authenticate": 'Bearer realm="api"' } } : res,
      },
      only: ["auth-invalid-bearer-401"],
      fails: "auth-invalid-bearer-401",
    },
    {
      name: "error bodies without ok:false",
      fault: {
        rewrite: (_req, res) => {
          if (res.status < 400) return res;
          const { ok: _ok, ...rest } = jsonOf(res) as Json;
          return withJson(res, rest);
        },
      },
      only: ["bounds-malformed-400", "error-body-members"],
      fails: "error-body-members",
    },
    {
      name: "a payment challenge quoting the wrong price",
      fault: {
        rewrite: (_req, res) => {
          if (res.status !== 402) return res;
          const wa = String(res.headers["www-authenticate"]).replace(
            /request="[^"]*"/,
            `request="${Buffer.from('{"amount":"9.99","currency":"usd"}').toString("base64url")}"`,
          );
          return { ...res, headers: { ...res.headers, "www-authenticate": wa } };
        },
      },
      only: ["auth-anonymous-refused", "payment-challenge"],
      fails: "payment-challenge",
    },
    {
      // the payment-refusal verdict (probes/payment-refusal.ts): the 50-entry batch goes unpaid on the mock
      name: "a validator that refuses the largest batch the contract allows (50 entries)",
      fault: {
        rewrite: (req, res) => {
          if (req.method !== "POST" || !isBatch(req) || (JSON.parse(req.body.toString("utf8")) as []).length < 50)
            return res;
          const error = { field: "", message: "must NOT have more than 49 items", code: "maxItems" };
          const body = { ok: false, error: "Validation Error", code: "PLB_VALIDATION_FAILED", errors: [error] };
          return withJson({ ...res, status: 422, headers: { "content-type": "application/json" } }, body);
        },
      },
      only: ["bounds-edge-accepted"],
      fails: "bounds-edge-accepted",
    },
    {
      // D-search-engine-values: refusing the values the interface's list lacks fails their own check only
      name: "a validator that still refuses sogou and yandex (the interface's list only)",
      fault: {
        rewrite: (req, res) => {
          if (!post(req, "/search") || !/"search_service":"(sogou|yandex)"/.test(req.body.toString("utf8"))) return res;
          const error = { field: "/search_service", message: "/search_service must be one of the list", code: "enum" };
          const body = { ok: false, error: "Validation Error", code: "PLB_VALIDATION_FAILED", errors: [error] };
          return withJson({ ...res, status: 422, headers: { "content-type": "application/json" } }, body);
        },
      },
      only: ["bounds-edge-accepted", "bounds-decided-values-accepted"],
      fails: "bounds-decided-values-accepted",
    },
    {
      name: "a payment refusal quoting one entry's price for a batch",
      fault: {
        rewrite: (req, res) => {
          if (res.status !== 402 || !isBatch(req) || !paymentCredential(req)) return res;
          const wa = String(res.headers["www-authenticate"]).replace(/request="([^"]*)"/, (_m, request: string) => {
            const decoded = JSON.parse(Buffer.from(request, "base64url").toString("utf8")) as Json;
            const one = Buffer.from(JSON.stringify({ ...decoded, amount: "0.003" })).toString("base64url");
            return `request="${one}"`;
          });
          return { ...res, headers: { ...res.headers, "www-authenticate": wa } };
        },
      },
      only: ["bounds-edge-accepted", "bounds-published-set"],
      fails: "bounds-edge-accepted",
    },
    {
      name: "more results than max_results",
      fault: {
        rewrite: (req, res) => {
          if (!post(req, "/search") || isBatch(req) || res.status !== 200) return res;
          const b = jsonOf(res) as { results: unknown[] };
          return withJson(res, { ...b, results: [...b.results, ...b.results, ...b.results] });
        },
      },
      only: ["billing-crawl-results-surcharge", "search-max-results"],
      fails: "search-max-results",
    },
    {
      name: "a screenshot answered as JPEG when PNG was asked",
      fault: {
        rewrite: (req, res) =>
          post(req, "/screenshot") && res.status === 200
            ? { ...res, headers: { ...res.headers, "content-type": "image/jpeg" } }
            : res,
      },
      only: ["billing-price-per-operation", "response-media-type"],
      fails: "response-media-type",
    },
    {
      name: "a screenshot one viewport pixel narrower than asked",
      fault: {
        rewrite: async (req, res) => {
          if (!ok200(req, res, "/screenshot")) return res;
          const image = sharp(res.body);
          const { width = 2, height = 2, format = "png" } = await image.metadata();
          return {
            ...res,
            body: await image
              .resize(width - 1, height, { fit: "fill" })
              .toFormat(format)
              .toBuffer(),
          };
        },
      },
      only: ["screenshot-image-format", "screenshot-pixel-size"],
      fails: "screenshot-pixel-size",
    },
    {
      name: "every screenshot encoded and labelled as PNG whatever the format asked",
      fault: {
        rewrite: async (req, res) =>
          ok200(req, res, "/screenshot")
            ? {
                ...res,
                headers: { ...res.headers, "content-type": "image/png" },
                body: await sharp(res.body).png().toBuffer(),
              }
            : res,
      },
      only: ["screenshot-image-format", "screenshot-pixel-size"],
      fails: "screenshot-image-format",
    },
    {
      name: "screenshot bytes cut short after an intact header",
      fault: {
        rewrite: (req, res) =>
          ok200(req, res, "/screenshot")
            ? { ...res, body: res.body.subarray(0, Math.floor(res.body.length / 2)) }
            : res,
      },
      only: ["screenshot-image-format", "screenshot-pixel-size"],
      fails: "screenshot-image-format",
    },
    {
      name: "extract results that ignore the response_format (a required field dropped, an object for an array)",
      fault: {
        rewrite: (req, res) => {
          if (!ok200(req, res, "/extract")) return res;
          const b = jsonOf(res) as { results: unknown };
          const results = Array.isArray(b.results) ? { items: b.results } : { ...(b.results as Json), sku: undefined };
          return withJson(res, { ...b, results });
        },
      },
      only: ["extract-results-match-format", "extract-openai-wrapper", "response-schema"],
      fails: "extract-results-match-format",
      // the wrapper's object schema is the same, so its results lose the required field too
      alsoFails: ["extract-openai-wrapper"],
    },
    {
      name: "the OpenAI-style response_format wrapper ignored (the page's main facts instead)",
      fault: {
        rewrite: (req, res) => {
          if (!ok200(req, res, "/extract") || (sent(req).response_format as Json)?.type !== "json_schema") return res;
          const b = jsonOf(res) as Json;
          return withJson(res, { ...b, results: { title: "A page", url: sent(req).url } });
        },
      },
      only: ["extract-results-match-format", "extract-openai-wrapper", "response-schema"],
      fails: "extract-openai-wrapper",
    },
    {
      name: "a deepcrawl zip without manifest.json",
      fault: {
        rewrite: (req, res) =>
          isZip(req, res)
            ? rezip(res, (files) => {
                delete files["manifest.json"];
              })
            : res,
      },
      only: ["deepcrawl-completes", "deepcrawl-zip-valid", "deepcrawl-zip-layout"],
      fails: "deepcrawl-zip-valid",
    },
    {
      name: "deepcrawl documents without front matter (manifest sizes kept consistent)",
      fault: {
        rewrite: (req, res) =>
          isZip(req, res)
            ? rezip(res, (files) => {
                const manifest = JSON.parse(strFromU8(files["manifest.json"])) as {
                  pages: Array<{ path: string | null; bytes: number }>;
                };
                for (const page of manifest.pages) {
                  if (!page.path) continue;
                  const doc = strToU8(strFromU8(files[page.path]).replace(/^---\n[\s\S]*?\n---\n\n?/, ""));
                  files[page.path] = doc;
                  page.bytes = doc.byteLength;
                }
                files["manifest.json"] = strToU8(JSON.stringify(manifest));
              })
            : res,
      },
      only: ["deepcrawl-zip-valid", "deepcrawl-zip-layout"],
      fails: "deepcrawl-zip-layout",
    },
    {
      name: "trending answers whose trendingParameters leave out max_results",
      fault: {
        rewrite: (req, res) => {
          if (!ok200(req, res, "/trending")) return res;
          const b = jsonOf(res) as { trendingParameters: Json };
          return withJson(res, { ...b, trendingParameters: { ...b.trendingParameters, max_results: undefined } });
        },
      },
      only: ["billing-price-per-operation", "parameters-echo", "trending-max-results"],
      fails: "parameters-echo",
    },
    {
      name: "more trending results than max_results",
      fault: {
        rewrite: (req, res) => {
          if (!ok200(req, res, "/trending")) return res;
          const b = jsonOf(res) as { results: unknown[] };
          return withJson(res, { ...b, results: [...b.results, ...b.results, ...b.results, ...b.results] });
        },
      },
      only: ["billing-price-per-operation", "parameters-echo", "trending-max-results"],
      fails: "trending-max-results",
    },
    {
      name: "a payment challenge without its expiry",
      fault: {
        rewrite: (_req, res) =>
          res.status === 402
            ? {
                ...res,
                headers: {
                  ...res.headers,
                  "www-authenticate": String(res.headers["www-authenticate"]).replace(/, expires="[^"]*"/, ""),
                },
              }
            : res,
      },
      only: ["auth-anonymous-refused", "payment-challenge"],
      fails: "payment-challenge",
    },
    {
      name: "a completed deepcrawl status without r2Key",
      fault: {
        rewrite: (req, res) => {
          if (!req.path.startsWith("/deepcrawl/status/") || res.status !== 200) return res;
          const b = jsonOf(res) as Json;
          return b.status === "completed" ? withJson(res, { ...b, r2Key: undefined }) : res;
        },
      },
      only: ["deepcrawl-completes", "deepcrawl-states-forward", "response-schema"],
      fails: "deepcrawl-completes",
    },
    {
      name: "a completed deepcrawl task reported processing again on later polls",
      fault: (() => {
        const finished = new Set<string>();
        return {
          rewrite: (req: ProxiedRequest, res: ProxiedResponse) => {
            if (!req.path.startsWith("/deepcrawl/status/") || res.status !== 200) return res;
            const b = jsonOf(res) as Json;
            if (b.status !== "completed") return res;
            if (!finished.has(req.path)) {
              finished.add(req.path);
              return res;
            }
            return withJson(res, { ...b, status: "processing", r2Key: undefined, zipUrl: undefined });
          },
        };
      })(),
      only: ["deepcrawl-completes", "deepcrawl-states-forward", "deepcrawl-terminal-stays"],
      fails: "deepcrawl-terminal-stays",
    },
    {
      name: "a finished task's zipUrl serving another package on a later download",
      fault: (() => {
        let downloads = 0;
        return {
          rewrite: (req: ProxiedRequest, res: ProxiedResponse) => {
            if (!isZip(req, res) || ++downloads === 1) return res;
            return rezip(res, (files) => {
              const manifest = JSON.parse(strFromU8(files["manifest.json"])) as Json;
              files["manifest.json"] = strToU8(JSON.stringify({ ...manifest, url: "https://example.org/another" }));
            });
          },
        };
      })(),
      only: ["deepcrawl-completes", "deepcrawl-zip-valid", "deepcrawl-terminal-stays"],
      fails: "deepcrawl-terminal-stays",
    },
    {
      name: "crawl content that keeps the page's script text",
      fault: {
        rewrite: (req, res) => {
          if (!ok200(req, res, "/crawl") || isBatch(req)) return res;
          const b = jsonOf(res) as { results: Json };
          const content = `${String(b.results.content)}\n<script>window.tracker = 1;</script>`;
          return withJson(res, { ...b, results: { ...b.results, content } });
        },
      },
      only: ["crawl-no-script-style"],
      fails: "crawl-no-script-style",
    },
    {
      name: "type sitemap listing a link of another host",
      fault: {
        rewrite: (req, res) => {
          if (!ok200(req, res, "/sitemap") || sent(req).type !== "sitemap") return res;
          const b = jsonOf(res) as { links: string[] };
          return withJson(res, { ...b, links: [...b.links, "https://example.org/elsewhere"] });
        },
      },
      only: ["sitemap-requested-host"],
      fails: "sitemap-requested-host",
    },
    {
      name: "a cloud-metadata target crawled instead of refused",
      fault: {
        rewrite: (req, res) =>
          post(req, "/crawl") && res.status === 400 && String(sent(req).url).includes("169.254.169.254")
            ? withJson(
                { ...res, status: 200 },
                {
                  crawlParameters: { url: sent(req).url },
                  results: { title: "meta-data", link: sent(req).url, content: "ami-id\ninstance-id" },
                },
              )
            : res,
      },
      only: ["target-refusal"],
      fails: "target-refusal",
    },
    // the OAuth checks (the mock is its own authorization server, reached through the proxy: the Host is forwarded)
    {
      name: "a token endpoint that takes a code twice, or with a wrong verifier or redirect URI",
      fault: {
        rewrite: (req, res) =>
          post(req, "/oauth/token") && form(req).grant_type === "authorization_code" && res.status === 400
            ? { ...withJson(res, { access_token: "forged", token_type: "Bearer", expires_in: 60 }), status: 200 }
            : res,
      },
      only: ["oauth-code-exchange"],
      fails: "oauth-code-exchange",
    },
    {
      name: "a rotated-out refresh token accepted again",
      fault: {
        rewrite: (req, res) =>
          post(req, "/oauth/token") && form(req).grant_type === "refresh_token" && res.status === 400
            ? {
                ...withJson(res, { access_token: "forged", token_type: "Bearer", refresh_token: "forged" }),
                status: 200,
              }
            : res,
      },
      only: ["oauth-refresh"],
      fails: "oauth-refresh",
    },
    {
      name: "a revoked access token still answered",
      fault: {
        rewrite: (req, res) =>
          req.path.startsWith("/usage") && res.status === 401 && /Bearer plbat_/.test(String(req.headers.authorization))
            ? {
                ...withJson(res, { usage: 1, user_id: null, credential_type: "oauth", client_id: null }),
                status: 200,
                headers: { ...res.headers, "content-type": "application/json" },
              }
            : res,
      },
      only: ["oauth-revocation"],
      fails: "oauth-revocation",
    },
    // the hosted MCP endpoint and the agent discovery documents (issue 15)
    {
      name: "an MCP endpoint whose 401 names no resource_metadata",
      fault: {
        rewrite: (req, res) =>
          req.path === "/mcp" && res.status === 401
            ? { ...res, headers: { ...res.headers, "www-authenticate": "Bearer" } }
            : res,
      },
      only: ["mcp-missing-credential-401", "mcp-initialize"],
      fails: "mcp-missing-credential-401",
    },
    {
      name: "an MCP tool whose input schema is not the document's",
      fault: {
        rewrite: (req, res) => {
          if (!post(req, "/mcp") || !mcpMethod(req, "tools/list") || res.status !== 200) return res;
          const b = jsonOf(res) as { result: { tools: Array<{ name: string; inputSchema: Json }> } };
          const tools = b.result.tools.map((t) =>
            t.name === "crawl" ? { ...t, inputSchema: { ...t.inputSchema, required: [] } } : t,
          );
          return withJson(res, { ...b, result: { ...b.result, tools } });
        },
      },
      only: ["mcp-initialize", "mcp-tools-list"],
      fails: "mcp-tools-list",
    },
    {
      name: "an MCP tool call charged twice",
      fault: { duplicate: (req) => post(req, "/mcp") && mcpMethod(req, "tools/call") },
      only: ["mcp-tool-call-charged", "mcp-tool-error"],
      fails: "mcp-tool-call-charged",
    },
    {
      name: "an MCP tool call whose REST error is reported as a success",
      fault: {
        rewrite: (req, res) => {
          if (!post(req, "/mcp") || !mcpMethod(req, "tools/call") || res.status !== 200) return res;
          const b = jsonOf(res) as { result: Json };
          return withJson(res, { ...b, result: { ...b.result, isError: false } });
        },
      },
      only: ["mcp-tool-call-charged", "mcp-tool-error"],
      fails: "mcp-tool-error",
    },
    {
      name: "an agent skills index whose digest is not the artifact's",
      fault: {
        rewrite: (req, res) => {
          if (req.path !== "/.well-known/agent-skills/index.json" || res.status !== 200) return res;
          const b = jsonOf(res) as { skills: Json[] };
          return withJson(res, { ...b, skills: b.skills.map((x) => ({ ...x, digest: `sha256:${"0".repeat(64)}` })) });
        },
      },
      only: ["discovery-agent-skills", "discovery-mcp-server-card"],
      fails: "discovery-agent-skills",
    },
  ];
}

export const VARIANTS: Variant[] = faultVariants();
