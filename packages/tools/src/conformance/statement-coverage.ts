// Statement coverage: every statement of the interface (spec/contract/interface-spec.md), quoted, with the checks
// that hold a target to it, or why none does. conformance/README.md shows it as a table rendered from this list
// (`plumbline conform coverage --write`); a test keeps the two, the registry and the interface text in step.

export type Coverage =
  /** checks hold a target to all of it */
  | "covered"
  /** checks hold a target to part of it; the note says what is left */
  | "partly"
  /** the interface leaves it open ("not shown"): nothing to hold a target to beyond the decisions' checks */
  | "not shown"
  /** not behaviour of the API target: a client's obligation, the dashboard, another host */
  | "not the target's"
  /** behaviour of the target that no check observes; the note says why */
  | "uncovered";

export interface Statement {
  /** the heading of interface-spec.md it sits under */
  section: string;
  /** its words, verbatim (whitespace aside) */
  quote: string;
  checks: string[];
  coverage: Coverage;
  note?: string;
}

const S = "What the service does";
const R = "Resources and their fields";
const ST = "States and transitions";
const AUTH = "Authentication";

const covered = (section: string, quote: string, checks: string[], note?: string): Statement => ({
  section,
  quote,
  checks,
  coverage: "covered",
  note,
});
const partly = (section: string, quote: string, checks: string[], note: string): Statement => ({
  section,
  quote,
  checks,
  coverage: "partly",
  note,
});
const none = (section: string, quote: string, coverage: Coverage, note: string, checks: string[] = []) => ({
  section,
  quote,
  checks,
  coverage,
  note,
});

const ANSWERS = ["response-status-listed", "response-schema", "response-media-type"];
const BOUNDS = ["bounds-edge-accepted", "bounds-past-rejected", "bounds-rejection-names-field"];

export const STATEMENTS: Statement[] = [
  partly(
    S,
    "The service is an HTTPS JSON interface for AI agents.",
    ["response-media-type", "response-schema"],
    "JSON only: the scheme is the target URL the suite is given (local targets are plain HTTP)",
  ),
  covered(
    S,
    "web search across many engines (`POST /search`)",
    ["search-echo", "search-max-results", "bounds-edge-accepted"],
    "every search_service value is sent",
  ),
  covered(S, "news search (`POST /news`)", ["search-echo", "search-max-results", "batch-entries-match-request"]),
  covered(S, "single-page crawl that returns readable text (`POST /crawl`)", ["crawl-readable-text"]),
  covered(S, "webpage screenshots as images (`POST /screenshot`)", ["screenshot-image-format"]),
  covered(S, "discovery of a site's URLs (`POST /sitemap`)", ["sitemap-follows-robots"]),
  partly(
    S,
    "trending lists from platforms (`POST /trending`)",
    ["response-schema", "trending-max-results", "parameters-echo"],
    "that the lists are the platforms' real trending items cannot be verified from outside",
  ),
  covered(S, "prompt-driven structured extraction from one page (`POST /extract`)", [
    "extract-results-match-format",
    "extract-values-from-page",
  ]),
  covered(
    S,
    "an asynchronous whole-site crawl that packages pages as documents (`POST /deepcrawl`, polled with `GET /deepcrawl/status/{taskId}`)",
    ["deepcrawl-accepted-queued", "deepcrawl-completes", "deepcrawl-zip-fixture-pages"],
  ),
  covered(S, "an uptime check (`GET /health`)", ["health-status-version", "auth-health-open"]),
  covered(
    S,
    "a credit-balance check (`GET /usage`)",
    ["billing-price-per-operation", "billing-free-operations"],
    "every billing check reads the balance there",
  ),
  none(S, "The address is {base_url}.", "not the target's", "the suite is given the address (--target)"),
  covered(
    S,
    "Paid operations are `POST` with a JSON body (`Content-Type: application/json`).",
    ["bounds-edge-accepted", "bounds-malformed-400"],
    "a text/plain body is refused",
  ),
  covered(S, "Each paid operation consumes credits (table below).", ["billing-price-per-operation"]),
  partly(
    S,
    "Pay-per-request is available through a payment protocol named MPP; a second protocol, x402, is also named as supported.",
    [
      "payment-challenge",
      "payment-challenge-parameters",
      "payment-receipt",
      "payment-replay-refused",
      "payment-amount-refused",
    ],
    "MPP through the Payment scheme is paid end to end with the test method (--payment-key); x402 is not offered (D-x402)",
  ),
  covered(
    S,
    "Every paid operation declares protocol `mpp` with a fixed price per request.",
    ["payment-challenge", "payment-challenge-parameters"],
    "a Payment challenge with the price (per entry for a batch) as amount in every 402",
  ),
  covered(
    S,
    "An unauthenticated or unpaid call to a paid operation can receive `402 Payment Required` with an `application/problem+json` body.",
    ["auth-anonymous-refused", "billing-zero-balance-402", "response-media-type"],
  ),
  covered(
    S,
    "| Operation | Credits | Fixed price (decimal string) |",
    ["billing-price-per-operation", "payment-challenge", "payment-challenge-parameters"],
    "credits measured through GET /usage, prices quoted in the 402 challenge",
  ),
  covered(
    S,
    "| GET /deepcrawl/status/{taskId} | 0 (free) | none declared |",
    ["billing-free-operations", "deepcrawl-polling-free"],
    "health and usage rows too",
  ),
  covered(
    S,
    "When `crawl_results` is set on search or news, each crawled result page is billed as an additional crawl.",
    ["billing-crawl-results-surcharge"],
  ),

  covered(
    R,
    "### Search parameters (`SearchParameters`, request of /search and echoed in its response)",
    [...BOUNDS, "search-echo"],
    "every field's type, bounds and enum values at and past their edges",
  ),
  covered(
    R,
    "| search_service | string enum | no | google, bing, bingcn, duckduckgo, yahoo, youtube, x, reddit, github, arxiv, wechat, bilibili, imdb, wikipedia, empty string, baidu, 360, quark |",
    [...BOUNDS, "bounds-decided-values-accepted"],
    "every listed value accepted, an unknown one rejected; sogou and yandex, beyond the list, rest on D-search-engine-values",
  ),
  covered(R, "| max_results | integer | no | 1..50, default 5 |", ["search-max-results", ...BOUNDS]),
  partly(R, "| page | integer | no | 1..100, default 1 |", BOUNDS, "what another page returns is not pinned"),
  covered(R, "| crawl_results | integer | no | 0..50, default 0 |", [
    "search-crawl-results-content",
    "billing-crawl-results-surcharge",
  ]),
  covered(R, "| image | boolean | no | default false |", ["search-images-and-sites"]),
  covered(R, "| include_sites | array of string | no | default empty |", ["search-images-and-sites"]),
  covered(R, "| exclude_sites | array of string | no | default empty |", ["search-images-and-sites"]),
  partly(
    R,
    "| language | string | no | language code such as a two-letter code or a regional form |",
    BOUNDS,
    "the type only: results in that language cannot be verified",
  ),
  partly(
    R,
    "| time_range | string enum | no | day, week, month, year, empty string |",
    BOUNDS,
    "accepted values only: result dates are not pinned",
  ),
  covered(R, "No fields other than these are accepted (additional properties are rejected).", [
    "bounds-past-rejected",
    "bounds-rejection-names-field",
  ]),
  covered(R, "Same as the search parameters except: there is no `page` field;", BOUNDS),
  covered(R, "| title | string | yes |", ["response-schema"], "every result of every search and news answer"),
  covered(R, "| content | string (full page text, present when pages are crawled) | no |", [
    "search-crawl-results-content",
  ]),
  none(
    R,
    "Extra properties may appear. A per-result id is mentioned",
    "not the target's",
    "a client's tolerance; the schema checks accept extra properties",
  ),
  none(R, "its type and format are not shown.", "not shown", "D-search-result-id: nothing to check"),
  covered(
    R,
    "| searchParameters | the request's parameters object (search or news form) | yes |",
    ["search-echo", "client-search-echo-defaults"],
    "client-search-echo-defaults fails an echo without the defaults the official client types as present (D-echo)",
  ),
  covered(R, "| images | array of string (URI); present when images were requested | no |", [
    "search-images-and-sites",
  ]),
  covered(
    R,
    "Entry: `success` boolean (required); `data` a Search response or News response (on success); `error` object with `message` string and `statusCode` integer (on failure); `cost` integer >= 0 (required).",
    ["response-schema", "batch-entries-match-request", "billing-batch-cost"],
  ),
  covered(R, "Summary: `total`, `successful`, `failed`, `totalCost`, each integer >= 0, all required.", [
    "batch-summary-arithmetic",
    "response-schema",
  ]),
  covered(R, "| content | string, readable text | yes |", ["crawl-readable-text", "response-schema"]),
  none(
    R,
    "The `metadata` contents are not shown beyond being an object.",
    "not shown",
    "D-crawl-metadata; response-schema checks the object",
    ["response-schema"],
  ),
  covered(
    R,
    "Crawl response: `crawlParameters` object with `url` (URI, required) and `results` a Crawl result; both required.",
    ["response-schema", "parameters-echo", "crawl-batch-urls"],
  ),
  covered(R, "`links`: array of string (URI), required.", ["response-schema"]),
  covered(
    R,
    "Trending result: `title` string (required), `url` string URI (required), `description` string or null (optional).",
    ["response-schema", "client-trending-description-null"],
    "client-trending-description-null fails a null the service's MCP server rejects (D-trending-description)",
  ),
  covered(
    R,
    "Trending response: `trendingParameters` (the trending request object echoed) and `results` (array of Trending result), both required.",
    ["response-schema", "parameters-echo"],
  ),
  covered(R, "| success | boolean, always true | yes |", ["response-schema"]),
  covered(R, "| extractParameters | object with `url` (URI, required) | yes |", ["response-schema", "parameters-echo"]),
  covered(R, "| results | any JSON value; its shape follows the `response_format` supplied | yes |", [
    "extract-results-match-format",
    "extract-openai-wrapper",
  ]),
  covered(
    R,
    "Accepted response (`DeepcrawlAcceptedResponse`): `taskId` string (required), `status` string, always `queued` (required).",
    ["deepcrawl-accepted-queued"],
  ),
  covered(R, "Status response (`DeepcrawlStatusResponse`):", ["response-schema", "deepcrawl-completes"]),
  covered(
    R,
    "| success | boolean | no |",
    ["response-schema", "client-deepcrawl-success-unfinished"],
    "client-deepcrawl-success-unfinished fails success before the task finished (D-deepcrawl-success)",
  ),
  covered(R, "`status` string (required); `timestamp` string, date-time; `version` string.", [
    "response-schema",
    "health-status-version",
  ]),
  covered(R, "| usage | integer >= 0 | yes |", ["response-schema"]),
  covered(R, "| credential_type | enum: api_key, oauth | yes |", ["response-schema"]),
  covered(
    R,
    "The operation is described as returning the remaining credit balance of the authenticated account.",
    ["billing-price-per-operation", "billing-free-operations", "billing-batch-cost"],
    "the balance drops by exactly what each call costs",
  ),

  covered(ST, "Only the deepcrawl task has states.", ["deepcrawl-states-forward"]),
  covered(ST, "| queued | Initial status returned by `POST /deepcrawl` (HTTP 202). |", ["deepcrawl-accepted-queued"]),
  covered(ST, "| waiting | Reported by the status operation. |", ["deepcrawl-states-forward"]),
  covered(ST, "the status response then tells where to retrieve the packaged result (`r2Key`, `zipUrl`).", [
    "deepcrawl-completes",
    "deepcrawl-zip-valid",
    "deepcrawl-zip-layout",
  ]),
  none(
    ST,
    "| failed | Reported by the status operation; `error` may carry text. |",
    "uncovered",
    "a target cannot be made to fail a task portably (the mock fails on request, a real target on its own terms); deepcrawl-states-forward accepts failed as an end",
    ["deepcrawl-states-forward"],
  ),
  covered(ST, "| not_found | Reported by the status operation for an id it does not know. |", ["deepcrawl-unknown-id"]),
  covered(
    ST,
    "Clients poll the status operation until the task reports completion; polling is safe to repeat and free.",
    ["deepcrawl-completes", "deepcrawl-polling-free", "deepcrawl-states-forward", "deepcrawl-terminal-stays"],
    "polls go on after the end",
  ),
  none(ST, "Transitions: not shown.", "not shown", "D-deepcrawl-states", [
    "deepcrawl-states-forward",
    "deepcrawl-terminal-stays",
  ]),

  covered("Endpoints", "All `POST` bodies are JSON.", ["bounds-malformed-400"]),
  covered("Endpoints", "Authentication for all operations except `GET /health` is a Bearer credential", [
    "auth-invalid-bearer-401",
    "auth-anonymous-refused",
    "auth-health-open",
  ]),
  covered(
    "POST /search",
    "Request body: either one Search parameters object, or a non-empty array (minItems 1) of Search parameters objects.",
    ["bounds-edge-accepted", "bounds-malformed-400", "batch-entries-match-request"],
  ),
  covered("POST /search", "Response 200: a Search response (single form) or a Search batch response (array form).", [
    "response-schema",
    "batch-entries-match-request",
  ]),
  covered(
    "Endpoints",
    "Error statuses: 400, 401, 402, 422, 429, 500, 502.",
    ANSWERS,
    "every endpoint's own list (search, news, sitemap, trending, extract, deepcrawl share this one), for every answer of the run",
  ),
  none(
    "POST /search",
    "Default search_service when omitted: not shown.",
    "not shown",
    "D-default-search-service: not observable in the answer",
  ),
  covered(
    "POST /news",
    "Request body: either one News parameters object or a non-empty array of them. Response 200: a News response or a News batch response.",
    ["batch-entries-match-request", "response-schema"],
  ),
  covered("POST /crawl", "| enableFallback | boolean | no | default true |", BOUNDS),
  covered("POST /crawl", "Response 200: a Crawl response, or for an array body an array of Crawl responses.", [
    "crawl-batch-urls",
    "response-schema",
  ]),
  covered(
    "POST /crawl",
    "The operation fetches one public URL and returns its title and body as clean text with navigation, boilerplate and scripts removed.",
    ["crawl-readable-text", "crawl-no-script-style"],
  ),
  covered("POST /crawl", "Error statuses: 400, 401, 402, 404, 410, 422, 429, 500, 502.", [
    "crawl-target-status",
    "response-status-listed",
  ]),
  covered("POST /screenshot", "Renders a public page as an image.", ["screenshot-image-format"]),
  covered("POST /screenshot", "| url | string (URI) | yes | maxLength 4096 |", BOUNDS),
  covered(
    "POST /screenshot",
    "| format | string enum | no | png, jpeg, webp; default png |",
    ["screenshot-image-format"],
    "one shot per format, the first without format",
  ),
  covered(
    "POST /screenshot",
    "| full_page | boolean | no | default false; capture the whole document |",
    ["screenshot-full-page", "screenshot-pixel-size"],
    "on a real target the page is taller than the viewport, so the default shot must be viewport-sized",
  ),
  covered(
    "POST /screenshot",
    "| viewport | object | no | default width 1440, height 900, device_scale_factor 1; no extra fields |",
    ["screenshot-pixel-size", ...BOUNDS],
  ),
  covered("POST /screenshot", "| viewport.device_scale_factor | number | no | 1..2, default 1 |", [
    "screenshot-pixel-size",
  ]),
  partly(
    "POST /screenshot",
    "| wait_until | string enum | no | domcontentloaded, load, networkidle; default load (when the page counts as ready) |",
    BOUNDS,
    "its values only; the effect is timing, which no fixture page shows in an image without racing the target",
  ),
  partly(
    "POST /screenshot",
    "| wait_for_selector | string | no | length 1..500; CSS selector to wait for |",
    BOUNDS,
    "its bounds only; the effect is timing, as wait_until",
  ),
  covered("POST /screenshot", "| selector | string | no | length 1..500; CSS selector; capture only that element |", [
    "screenshot-selector-crop",
  ]),
  partly(
    "POST /screenshot",
    "| delay_ms | integer | no | 0..5000, default 0 |",
    BOUNDS,
    "its bounds only; the effect is timing, as wait_until",
  ),
  partly(
    "POST /screenshot",
    "| timeout_ms | integer | no | 1000..30000, default 20000 |",
    BOUNDS,
    "its bounds only; which status a timeout yields is not shown",
  ),
  none(
    "POST /screenshot",
    "Which formats `quality` applies to: not shown.",
    "not shown",
    "D-screenshot-quality: quality on png is accepted (bounds-edge-accepted)",
    ["bounds-edge-accepted"],
  ),
  covered("POST /screenshot", "| omit_background | boolean | no | default false |", ["screenshot-omit-background"]),
  covered("POST /screenshot", "| color_scheme | string enum | no | light, dark; default light |", [
    "screenshot-color-scheme",
  ]),
  partly(
    "POST /screenshot",
    "| animations | string enum | no | disabled, allow; default disabled |",
    BOUNDS,
    "its values only; an animation's frame cannot be pinned in an image without racing the target",
  ),
  covered(
    "POST /screenshot",
    "Response 200: binary image body with content type image/png, image/jpeg or image/webp.",
    ["screenshot-image-format", "response-media-type"],
  ),
  covered(
    "POST /screenshot",
    "Error statuses: 400, 401, 402, 403, 422, 429, 500, 502, 503, 504.",
    ["response-status-listed", "target-refusal"],
    "403 for a refused target (D-target-refusal): a cloud-metadata address, refused under every network policy",
  ),
  covered(
    "POST /sitemap",
    "Request body (no extra fields): `url` string URI (required); `type` string enum `sitemap` or `all` (optional; `sitemap` is the default).",
    BOUNDS,
  ),
  covered(
    "POST /sitemap",
    "Sitemap directives in robots.txt are tried first, then conventional paths; sitemap index files and gzipped sitemaps are followed. The URLs declared for the requested host are returned.",
    ["sitemap-follows-robots", "sitemap-conventional-path", "sitemap-requested-host"],
  ),
  covered(
    "POST /sitemap",
    "With `sitemap`, a site that publishes no sitemap falls back to the links found on the given page.",
    ["sitemap-fallback-links"],
  ),
  covered(
    "POST /sitemap",
    "With `all`: the sitemap is skipped and every link on that one page is returned, including links to other hosts.",
    ["sitemap-type-all"],
  ),
  covered("POST /sitemap", "Neither mode fetches page content.", ["sitemap-no-page-content"]),
  covered("POST /trending", "`max_results` integer >= 1 (optional, no upper bound or default given).", [
    "trending-max-results",
    ...BOUNDS,
  ]),
  none(
    "POST /trending",
    "The list of platforms accepted in `search_service` for trending: not shown",
    "not shown",
    "D-trending-platforms: another value may be refused with 400 (bounds-edge-accepted allows it)",
    ["bounds-edge-accepted"],
  ),
  covered(
    "POST /extract",
    "`response_format` object with free-form properties, a JSON schema describing the wanted output (optional).",
    ["extract-results-match-format", "extract-openai-wrapper"],
  ),
  covered(
    "POST /extract",
    "Request body (no extra fields): `url` string URI (required); `prompt` string natural-language instruction (optional);",
    [...BOUNDS, "extract-values-from-page"],
  ),
  covered(
    "POST /deepcrawl",
    "Request body (no extra fields): `url` string URI (required); `type` string enum `sitemap` or `all` (optional).",
    [...BOUNDS, "deepcrawl-zip-layout"],
  ),
  covered(
    "POST /deepcrawl",
    "Returns at once with HTTP 202 and a Deepcrawl accepted response (`taskId`, `status` = `queued`); it does not return the crawl result.",
    ["deepcrawl-accepted-queued"],
  ),
  partly(
    "GET /deepcrawl/status/{taskId}",
    "Path parameter `taskId`: string, minLength 1, required.",
    ["deepcrawl-unknown-id"],
    "an empty id is a different route, not a request this operation sees",
  ),
  covered("GET /deepcrawl/status/{taskId}", "Response 200: Deepcrawl status response. Free, safe to repeat.", [
    "deepcrawl-polling-free",
    "billing-free-operations",
    "response-schema",
  ]),
  covered("GET /deepcrawl/status/{taskId}", "Error statuses: 400, 404, 500, 502.", [
    "response-status-listed",
    "deepcrawl-unknown-id-404",
  ]),
  covered(
    "GET /health",
    "No credentials. No parameters. Response 200: Health response. Error status: 500. It does not tell whether an API key is valid.",
    ["auth-health-open", "health-status-version"],
  ),
  covered(
    "GET /usage",
    "Query parameter `period`: string enum day, week, month, year (optional).",
    ["billing-free-operations", "bounds-malformed-400"],
    "every period accepted, an unknown one refused",
  ),
  covered(
    "GET /usage",
    "Error statuses: 400, 401, 429, 500. It can be used to confirm a credential works.",
    ["response-status-listed", "auth-invalid-bearer-401", "auth-query-credential-ignored"],
    "and the run's preflight",
  ),

  covered(
    AUTH,
    "Every operation except `GET /health` declares Bearer authentication: header `Authorization: Bearer <credential>`.",
    ["auth-invalid-bearer-401", "auth-anonymous-refused"],
  ),
  covered(
    AUTH,
    "The credential is either an OAuth access token or a user-managed API key (legacy, still supported).",
    ["auth-invalid-bearer-401", "oauth-discovery", "oauth-revocation"],
    "runs use an API key; the OAuth checks obtain access tokens (consenting in headless Chromium with --oauth-user where the authorization server shows a sign-in page), call /usage with them, and see a revoked one refused at once",
  ),
  partly(
    AUTH,
    "OAuth tokens map to the same user and credit balance as the account dashboard.",
    ["oauth-discovery"],
    "the token's /usage reports credential_type oauth, the client and a balance; that it is the dashboard's balance only the person who consented knows (the reference's end-to-end test sees the charge on the dashboard)",
  ),
  covered(
    AUTH,
    "The usage response reports `credential_type` as `oauth` or `api_key`.",
    ["response-schema", "oauth-discovery"],
    "oauth, with the client_id, for an access token",
  ),
  covered(AUTH, "Credentials must go in the header; putting them in URL query parameters is discouraged.", [
    "auth-query-credential-ignored",
  ]),
  covered(
    AUTH,
    "Protected responses advertise the protected-resource metadata URL in the `WWW-Authenticate` header (RFC 9728).",
    [
      "auth-invalid-bearer-401",
      "auth-anonymous-payment-challenge",
      "discovery-protected-resource",
      "mcp-missing-credential-401",
    ],
  ),
  covered(
    "Discovery endpoints",
    "| REST protected-resource metadata | {base_url}/.well-known/oauth-protected-resource |",
    ["discovery-protected-resource"],
  ),
  covered("Discovery endpoints", "| Machine-readable interface description | {base_url}/openapi.json |", [
    "discovery-openapi-json",
  ]),
  partly(
    "Discovery endpoints",
    "| Authorization-server metadata | {auth_url}/.well-known/oauth-authorization-server |",
    ["oauth-discovery"],
    "followed from the protected-resource metadata when it names a reachable one (the mock and the reference serve one), skipped otherwise (D-authorization-server)",
  ),
  covered(
    "Discovery endpoints",
    "| Hosted MCP protected-resource metadata | {mcp_url}/.well-known/oauth-protected-resource |",
    ["mcp-missing-credential-401", "discovery-mcp-protected-resource"],
    "followed from the endpoint's 401 challenge; served at the RFC 9728 address of {mcp_url}/mcp (D-mcp-endpoint)",
  ),
  covered("Discovery endpoints", "| Hosted MCP endpoint | {mcp_url}/mcp |", [
    "mcp-initialize",
    "mcp-tools-list",
    "mcp-tool-call-charged",
    "mcp-tool-error",
  ]),
  covered("Discovery endpoints", "| API catalog | {site_url}/.well-known/api-catalog |", ["discovery-api-catalog"]),
  covered("Discovery endpoints", "| MCP server card | {site_url}/.well-known/mcp/server-card.json |", [
    "discovery-mcp-server-card",
  ]),
  covered("Discovery endpoints", "| Agent skills index | {site_url}/.well-known/agent-skills/index.json |", [
    "discovery-agent-skills",
  ]),
  partly(
    "OAuth registration contract",
    "Registration needs no e-mail and no pre-existing API key; it creates no user without consent.",
    ["oauth-registration", "oauth-discovery"],
    "a public client registers with neither and needs no secret; that no user appears without consent is not observable from outside (the reference's sign-up is the only way a user appears)",
  ),
  covered(
    "OAuth flow (Authorization Code with PKCE)",
    "A refresh token is issued only when the scope `offline_access` is requested.",
    ["oauth-refresh"],
    "none for openid alone; with offline_access one that rotates, whose reuse revokes its family",
  ),
  partly(
    "OAuth flow (Authorization Code with PKCE)",
    "The implicit grant must not be used. `state` must be verified before exchanging the code.",
    ["oauth-code-exchange"],
    "a client's obligations; the checks hold the server to its side: state echoed, PKCE S256 required, a wrong verifier, a wrong or unregistered redirect URI and a reused code refused",
  ),
  none(
    "OAuth flow (Authorization Code with PKCE)",
    "API keys are created, rotated and revoked in the account dashboard.",
    "not the target's",
    "the dashboard, not the API",
  ),
  none(
    "OAuth flow (Authorization Code with PKCE)",
    "Access token lifetime, scopes beyond `openid` and `offline_access`, and per-operation scope requirements: not shown.",
    "not shown",
    "nothing to check",
  ),
  none(
    "OAuth flow (Authorization Code with PKCE)",
    "Payment protocol handshake for pay-per-request (challenge headers and challenge body): not shown.",
    "not shown",
    "D-payment-challenge",
    [
      "payment-challenge",
      "payment-challenge-parameters",
      "payment-replay-refused",
      "payment-amount-refused",
      "payment-receipt",
    ],
  ),
  covered("Events", "deepcrawl completion is learned by polling the status operation.", ["deepcrawl-completes"]),

  covered("Errors", "Error body (`ApiError`, content type `application/json`; `application/problem+json` for 402):", [
    "response-media-type",
    "response-schema",
    "error-body-members",
  ]),
  covered("Errors", "| ok | boolean | always false |", ["error-body-members", "response-schema"]),
  covered(
    "Errors",
    "| message | string | |",
    ["error-body-members", "response-schema", "client-validation-message-names-field"],
    "client-validation-message-names-field fails a 422 message that names no field (D-validation-message)",
  ),
  covered("Errors", "| errors | array of object | each with `field` string, `message` string, `code` string |", [
    "response-schema",
    "bounds-rejection-names-field",
  ]),
  covered(
    "Errors",
    "| type | string (URI) | RFC 9457 problem field |",
    ["payment-challenge", "response-schema"],
    "the 402 problem's type, title, status and detail",
  ),
  none("Errors", "Additional properties are allowed.", "not the target's", "a client's tolerance"),
  covered(
    "Errors",
    "| Status | Label | Operations that list it |",
    ["response-status-listed", "error-status-label"],
    "every answer's status is one its operation lists",
  ),
  covered(
    "Errors",
    "A deepcrawl task id that is unknown may also appear as status value `not_found` in a 200 status response.",
    ["deepcrawl-unknown-id"],
  ),
  none(
    "Errors",
    "Which specific condition yields which of these statuses: not shown.",
    "not shown",
    "D-validation-status, D-auth, D-error-codes",
    ["bounds-malformed-400", "bounds-rejection-names-field", "auth-anonymous-payment-challenge"],
  ),
  none(
    "Errors",
    "The set of values for `error` and for `errors[].code`: not shown.",
    "not shown",
    "D-error-body, D-error-codes",
    ["error-status-label", "bounds-rejection-names-field"],
  ),
  covered(
    "Errors",
    "Batch entries report their own failure through `success` false and an `error` object with `message` and `statusCode`.",
    ["billing-failed-entry-free", "response-schema"],
  ),

  covered("Limits", "Parameter bounds are given in the Resources and Endpoints tables", BOUNDS),
  covered(
    "Limits",
    "A second set of bounds is also published for search",
    ["bounds-published-set"],
    "the alt-bounds profile reports which set a target enforces",
  ),
  covered("Limits", "A `crawl_results` value N adds N page crawls to the bill.", ["billing-crawl-results-surcharge"]),
  none(
    "Limits",
    "Rate limit values, quota windows and retry headers (429 is the status used for rate limiting): not shown.",
    "not shown",
    "D-rate-limits: one deliberate 429 on the free GET /usage by default, the wait it advertises honoured",
    ["rate-limit-retry-after", "response-headers-declared"],
  ),
  none(
    "Limits",
    "Maximum number of entries in an array (batch) body for search, news and crawl: not shown (minimum is 1).",
    "not shown",
    "D-batch-limits: a batch of 50 accepted, 51 refused; the empty array refused",
    ["bounds-edge-accepted", "bounds-past-rejected", "bounds-malformed-400"],
  ),

  covered("Versioning", "The interface description carries version 1.0.0.", ["discovery-openapi-json"]),
  covered("Versioning", "The health response carries a `version` string.", ["health-status-version"]),
  covered(
    "Versioning",
    "Paths carry no version segment.",
    ["discovery-openapi-json"],
    "every contract path is served as written",
  ),
  none(
    "Versioning",
    "Versioning policy, deprecation rules and compatibility guarantees: not shown.",
    "not shown",
    "nothing to check",
  ),
];

/** Checks serving no statement of the interface: they hold a target to decisions on what it never mentions. */
export const BEYOND_THE_TEXT: Array<{ check: string; note: string }> = [
  {
    check: "billing-rejected-free",
    note: "D-charging: rejected calls (400, 422) cost nothing; the interface gives prices, not when they are charged",
  },
  { check: "x-request-id", note: "D-headers: a request id is echoed (contract notes, observed on the live service)" },
  { check: "discovery-link-header", note: "D-headers: every answer links to /openapi.json" },
  // the live version's operations (docs/contract-versions.md): the interface has neither /ask nor /feedback
  {
    check: "ask-intent-phrases",
    note: "live version, D-ask-intent: platform and time phrases choose the engines and the window",
  },
  {
    check: "ask-charged",
    note: "live version, D-ask-charging: 5 credits a 200, some engines failed or not; a 502 free",
  },
  {
    check: "ask-engine-failures",
    note: "live version, D-ask-charging: a failed engine listed in errors; every engine failed, a 502 (the mock's steering)",
  },
  {
    check: "ask-relevance-order",
    note: "live version, D-ask-relevance, D-ask-intent: every /ask answer ranked, merged, its intent well formed",
  },
  {
    check: "feedback-stored",
    note: "live version, D-feedback: 201 only once stored (the mock's store listed and steered), free",
  },
  { check: "feedback-limits", note: "live version, D-feedback: 413 over 16 KiB, 415 not JSON" },
  { check: "feedback-rate-limit", note: "live version, D-feedback: the eleventh report of a window refused 429" },
  { check: "feedback-no-echo", note: "live version, D-feedback: no answer echoes the report or the credential" },
  {
    check: "no-transport-errors",
    note: "every request gets an HTTP answer within --timeout (a precondition of all the others)",
  },
];

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function coverageSummary(statements = STATEMENTS): string {
  const count = (c: Coverage) => statements.filter((s) => s.coverage === c).length;
  const observable = statements.filter((s) => s.coverage !== "not shown" && s.coverage !== "not the target's");
  return [
    `${statements.length} statements; ${observable.length} describe behaviour a client can observe on the target:`,
    `${count("covered")} covered, ${count("partly")} partly covered, ${count("uncovered")} uncovered.`,
    `${count("not shown")} leave the behaviour open ("not shown", decision checks listed where there are some),`,
    `${count("not the target's")} are not the target's behaviour (client obligations, the dashboard, other hosts).`,
  ].join(" ");
}

/** The Markdown table of conformance/README.md. */
export function renderCoverageTable(statements = STATEMENTS): string {
  const rows = statements.map(
    (s) =>
      `| ${cell(s.section)} | ${cell(s.quote)} | ${s.coverage} | ${s.checks.map((c) => `\`${c}\``).join(", ")} | ${cell(s.note ?? "")} |`,
  );
  return [
    coverageSummary(statements),
    "",
    "| section | statement | coverage | checks | note |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "Checks that serve no statement of the interface (they rest on decisions about what it never mentions):",
    "",
    "| check | basis |",
    "|---|---|",
    ...BEYOND_THE_TEXT.map((b) => `| \`${b.check}\` | ${cell(b.note)} |`),
  ].join("\n");
}

export const COVERAGE_BEGIN = "<!-- statement-coverage: generated by `plumbline conform coverage --write` -->";
export const COVERAGE_END = "<!-- end of statement-coverage -->";

/** The README text with its coverage section replaced by the rendered table. */
export function withCoverageTable(readme: string): string {
  const start = readme.indexOf(COVERAGE_BEGIN);
  const end = readme.indexOf(COVERAGE_END);
  if (start < 0 || end < start) throw new Error("conformance/README.md lacks the statement-coverage markers");
  return `${readme.slice(0, start + COVERAGE_BEGIN.length)}\n${renderCoverageTable()}\n${readme.slice(end)}`;
}
