// Generated from live/openapi.yaml by `plumbline spec types --contract live --write` (openapi-typescript). Do not edit.
export type paths = {
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Web search across many engines
         * @description Searches the chosen engine. A single parameters object returns a search response; a non-empty array
         *     returns a batch response with one entry per item, in order. Each result may carry an opaque per-result
         *     id (type not shown by the contract; see D-search-result-id). With `crawl_results` N, the first N result
         *     pages are crawled and their text returned in `content`, each billed as an additional crawl.
         */
        post: operations["search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/news": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * News search
         * @description Like search, with the news engines and without `page`. Single object or non-empty array.
         */
        post: operations["news"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ask": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search the engines a plain-language request calls for
         * @description Takes one plain-language request and decides the rest: which engines to search (up to five), the keywords
         *     to send them and the publication window, then searches the engines at once and returns only the results
         *     it judges relevant (relevance at least 0.5), best first, the same page found by two engines merged into
         *     one result. `intent` tells how the request was read. An engine that fails while others answer is listed in
         *     `errors` and the call is still charged; when every engine fails the call answers 502, uncharged
         *     (D-ask-charging). The body holds `query` and nothing else (D-ask-request).
         */
        post: operations["ask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tell the service's operators about a problem or a missing capability
         * @description Free. Stores one report from the calling account (a message, and optionally what the caller was trying to
         *     do, a category, the id of the request that went wrong and the agent that sent it) and answers 201 with the
         *     report's id only once it is stored. A body over 16 KiB answers 413, a body that is not JSON 415, and an
         *     account's eleventh report within a minute 429 (D-feedback). Reports are listed to the operators, never
         *     echoed to other accounts.
         */
        post: operations["feedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/crawl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Single-page crawl returning readable text
         * @description `enable_fallback` is accepted as another spelling of `enableFallback` (D-crawl-fallback-alias).
         *     Fetches one public URL and returns its title and body as clean text with navigation, boilerplate and
         *     scripts removed (Markdown, D-crawl-content). An array body returns an array of crawl responses; it may
         *     hold only the URLs that succeeded, in any order, matched back by `crawlParameters.url` (D-crawl-batch).
         *     A target that answers 404 or 410 yields 404 or 410, charged (D-charging).
         *     A target refused by URL-safety checks (loopback, private, link-local or metadata addresses) is 400 here, since
         *     crawl lists no 403 (D-target-refusal). A page past the parsing limits answers 502, uncharged
         *     (D-parse-limits); batch entries run a few at a time under one deadline (D-batch-execution).
         */
        post: operations["crawl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/screenshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Webpage screenshot as an image
         * @description Renders a public page as an image. `quality` applies to jpeg and webp and is ignored for png
         *     (D-screenshot-quality).
         */
        post: operations["screenshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sitemap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discover a site's URLs
         * @description With `sitemap` (the default), the site's own sitemap is read: Sitemap directives in robots.txt first,
         *     then conventional paths; sitemap index files and gzipped sitemaps are followed; the URLs declared for
         *     the requested host are returned. A site without a sitemap falls back to the links on the given page.
         *     With `all`, the sitemap is skipped and every link on that one page is returned, other hosts included.
         *     Neither mode fetches page content.
         */
        post: operations["sitemap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trending lists from platforms
         * @description Platforms accepted: `github` and `hackernews` (D-trending-platforms); another value is a bad value caught
         *     outside schema validation (400). `max_results` defaults to 10 and is capped at 50 (D-trending-platforms).
         */
        post: operations["trending"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/extract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prompt-driven structured extraction from one page
         * @description `response_format` is a JSON Schema describing the wanted output; the OpenAI-style wrapper
         *     `{"type":"json_schema","json_schema":{"schema":…}}` is accepted too (D-extract-response-format).
         */
        post: operations["extract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deepcrawl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an asynchronous whole-site crawl
         * @description Returns at once with 202 and a task id; poll `GET /deepcrawl/status/{taskId}`. `type` defaults to
         *     `sitemap` (D-deepcrawl-type). No idempotency key: a retried start bills a new task (D-charging). The
         *     packaged result is a zip laid out as D-deepcrawl-zip says (schema `DeepcrawlManifest`).
         */
        post: operations["deepcrawl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deepcrawl/status/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll a deepcrawl task
         * @description Free and safe to repeat. Bearer authentication, as on every operation but `/health`: a missing or unknown
         *     credential answers 401, and a task of another account answers 404 as an unknown id does (D-status-auth).
         *     A task paid per request with a Payment credential has no account: its id alone reads it. An unknown id
         *     answers 404 with `status: not_found` (D-status-not-found).
         */
        get: operations["deepcrawlStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Uptime check
         * @description Needs no credentials and does not tell whether an API key is valid.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Remaining credit balance of the authenticated account
         * @description Free. Returns the remaining credit balance; can be used to confirm a credential works. The contract
         *     lists no 402 or 422 here: no credential is 401 (D-auth), a bad `period` is 400 (D-validation-status).
         */
        get: operations["usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Machine-readable interface description */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * REST protected-resource metadata (RFC 9728)
         * @description Names the authorization server when the implementation has one, else an empty `authorization_servers`
         *     (D-authorization-server).
         */
        get: operations["getProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Hosted MCP protected-resource metadata (RFC 9728)
         * @description The metadata of the hosted MCP endpoint `{mcp_url}/mcp`, at the address RFC 9728 §3.1 derives from that
         *     resource identifier; it names the same authorization servers as the REST metadata (D-mcp-endpoint).
         */
        get: operations["getMcpProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/api-catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API catalog (RFC 9727)
         * @description A linkset anchoring the API at `{base_url}` with its `service-desc` (the OpenAPI document), `service-doc`
         *     and `status` links, and the hosted MCP endpoint with its server card (D-api-catalog).
         */
        get: operations["getApiCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/mcp/server-card.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP server card (SEP-2127)
         * @description Names the hosted MCP server, its version and its Streamable HTTP endpoint before a client connects, in the
         *     shape of the MCP server-card extension's v1 schema (D-mcp-server-card).
         */
        get: operations["getMcpServerCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/agent-skills/index.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent skills index (Agent Skills Discovery draft 0.2.0)
         * @description Lists the skills this service publishes, each with its URL and the SHA-256 digest of its artifact
         *     (D-agent-skills).
         */
        get: operations["getAgentSkillsIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/agent-skills/web-search-crawl-extract/SKILL.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The service's agent skill (SKILL.md)
         * @description A SKILL.md generated from this document: the operations, their prices, authentication and the MCP
         *     endpoint (D-agent-skills). Its SHA-256 is the digest the index lists.
         */
        get: operations["getAgentSkill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /** @description Request of /search, echoed in its response. No other fields are accepted. */
        SearchParameters: {
            query: string;
            /**
             * @description Engine to use. Omitted or empty means the service default, `google` (D-default-search-service). `yandex`
             *     is one of the service's engines; `sogou` no longer is (D-search-engine-values).
             * @enum {string}
             */
            search_service?: "google" | "bing" | "bingcn" | "duckduckgo" | "yahoo" | "youtube" | "x" | "reddit" | "github" | "arxiv" | "wechat" | "bilibili" | "imdb" | "wikipedia" | "" | "baidu" | "360" | "quark" | "yandex";
            /** @default 5 */
            max_results?: number;
            /** @default 1 */
            page?: number;
            /**
             * @description Crawl the first N result pages and return their text in `content`; each is billed as a crawl.
             * @default 0
             */
            crawl_results?: number;
            /** @default false */
            image?: boolean;
            /** @default [] */
            include_sites?: string[];
            /** @default [] */
            exclude_sites?: string[];
            /** @description A language code such as a two-letter code or a regional form (en, en-GB). */
            language?: string;
            /** @enum {string} */
            time_range?: "day" | "week" | "month" | "year" | "";
        };
        /** @description Request of /news, echoed in its response. As search parameters without `page`, with the news engines. */
        NewsParameters: {
            query: string;
            /**
             * @description Engine to use. Omitted or empty means the service default, `google` (D-default-search-service).
             * @enum {string}
             */
            search_service?: "google" | "bing" | "duckduckgo" | "yahoo" | "hackernews" | "" | "reuters";
            /** @default 5 */
            max_results?: number;
            /**
             * @description Crawl the first N result pages and return their text in `content`; each is billed as a crawl.
             * @default 0
             */
            crawl_results?: number;
            /** @default false */
            image?: boolean;
            /** @default [] */
            include_sites?: string[];
            /** @default [] */
            exclude_sites?: string[];
            /** @description A language code such as a two-letter code or a regional form (en, en-GB). */
            language?: string;
            /** @enum {string} */
            time_range?: "day" | "week" | "month" | "year" | "";
        };
        SearchBatchRequest: components["schemas"]["SearchParameters"][];
        NewsBatchRequest: components["schemas"]["NewsParameters"][];
        SearchResult: {
            title: string;
            /** Format: uri */
            link: string;
            snippet: string;
            /** @description Full page text, present when pages are crawled. */
            content?: string;
            published_date?: components["schemas"]["PublishedDate"];
            /**
             * @description `github` results only: what the result is (D-result-fields).
             * @enum {string}
             */
            kind?: "repo" | "issue" | "pr" | "discussion";
            /** @description `github` repositories only: their star count. */
            stars?: number;
            /** @description `github` repositories only: their main language, absent when none. */
            language?: string;
            /** @description `github` issues, pull requests and discussions, and `hackernews` news: the comment count. */
            num_comments?: number;
            /** @description `hackernews` news only: the thread's points. */
            points?: number;
            /**
             * @description `hackernews` news only: the article submitted, while `link` is the discussion; empty for a text post
             *     (Ask HN, Show HN) (D-result-fields).
             */
            story_url?: string;
        } & {
            [key: string]: unknown;
        };
        SearchResponse: {
            /** @description The request's parameters echoed (D-echo). */
            searchParameters: components["schemas"]["SearchParameters"];
            results: components["schemas"]["SearchResult"][];
            /** @description Present when images were requested. */
            images?: string[];
        };
        NewsResponse: {
            searchParameters: components["schemas"]["NewsParameters"];
            results: components["schemas"]["SearchResult"][];
            /** @description Present when images were requested. */
            images?: string[];
        };
        BatchEntryError: {
            message: string;
            statusCode: number;
        };
        BatchSummary: {
            total: number;
            successful: number;
            failed: number;
            totalCost: number;
        };
        SearchBatchEntry: {
            success: boolean;
            data?: components["schemas"]["SearchResponse"];
            error?: components["schemas"]["BatchEntryError"];
            cost: number;
        };
        NewsBatchEntry: {
            success: boolean;
            data?: components["schemas"]["NewsResponse"];
            error?: components["schemas"]["BatchEntryError"];
            cost: number;
        };
        SearchBatchResponse: {
            results: components["schemas"]["SearchBatchEntry"][];
            summary: components["schemas"]["BatchSummary"];
        };
        NewsBatchResponse: {
            results: components["schemas"]["NewsBatchEntry"][];
            summary: components["schemas"]["BatchSummary"];
        };
        CrawlRequest: {
            /** Format: uri */
            url: string;
            /**
             * @description Render the page in a browser when the static fetch yields little or no readable text.
             * @default true
             */
            enableFallback?: boolean;
            /** @description The same setting in snake_case; `enableFallback` wins when both are sent (D-crawl-fallback-alias). */
            enable_fallback?: boolean;
        };
        CrawlBatchRequest: components["schemas"]["CrawlRequest"][];
        /** @description The request of /ask: only `query`; engines, keywords and the window are always chosen by the service (D-ask-request). */
        AskRequest: {
            /**
             * @description What is looked for, in plain language. Platform phrases ("on github", "papers", "on reddit") choose the
             *     engines; time phrases ("today", "this week", "this month", "this year") choose the window (D-ask-intent).
             */
            query: string;
        };
        /** @description How the request was read (D-ask-intent). */
        AskIntent: {
            /** @description The keywords sent to the engines, platform and time phrases taken out. */
            search_query: string;
            /** @description The engines searched, at most five. */
            sources: string[];
            /**
             * @description The publication window applied; null for none.
             * @enum {string|null}
             */
            time_range: "day" | "week" | "month" | "year" | null;
        };
        AskResult: {
            title: string;
            /** Format: uri */
            link: string;
            snippet: string;
            published_date?: components["schemas"]["PublishedDate"];
            /** @description The engine that found the result (the first one, when several did). */
            source: string;
            /** @description How likely the result is about the request, to two decimals; below 0.5 a result is left out (D-ask-relevance). */
            relevance: number;
        } & {
            [key: string]: unknown;
        };
        AskEngineError: {
            /** @description The engine that failed. */
            source: string;
            message: string;
        };
        AskResponse: {
            /** @description The request's query as sent. */
            query: string;
            intent: components["schemas"]["AskIntent"];
            /** @description The relevant results of every engine, best first, duplicates merged; may be empty (D-ask-relevance). */
            results: components["schemas"]["AskResult"][];
            /** @description The engines that failed while others answered; the call is charged all the same (D-ask-charging). */
            errors: components["schemas"]["AskEngineError"][];
        };
        /**
         * @description When the page was published: a date (`2026-11-24`) when the source knows only the day, a UTC date-time
         *     (`2026-11-24T09:12:44Z`) when it knows the time. Absent when the source gives no date (D-result-fields).
         */
        PublishedDate: string;
        /** @description A report to the service's operators. No other fields are accepted (D-feedback). */
        FeedbackRequest: {
            /** @description What went wrong or what is missing. */
            message: string;
            /** @description What the caller was trying to do. */
            intent?: string;
            /**
             * @default other
             * @enum {string}
             */
            category?: "bug" | "feature_request" | "docs" | "other";
            /** @description The `x-request-id` of the call the report is about. */
            request_id?: string;
            /** @description The agent that sends the report. */
            agent?: {
                name?: string;
                model?: string;
            };
        };
        FeedbackResponse: {
            id: string;
            /** @constant */
            status: "new";
        };
        /** @description Contents not shown by the contract; the fields plumbline fills are a decision (D-crawl-metadata). */
        CrawlMetadata: {
            description?: string | null;
            language?: string | null;
            published_time?: string | null;
            site_name?: string | null;
            canonical_url?: string | null;
            status_code?: number;
            content_type?: string;
            word_count?: number;
            /** Format: date-time */
            fetched_at?: string;
            /** @description True when the browser fallback produced the text. */
            rendered?: boolean;
            /** @description The article's pictures, which the text leaves out (D-crawl-metadata); absent when unknown. */
            images?: string[];
        } & {
            [key: string]: unknown;
        };
        CrawlResult: {
            title: string;
            /** Format: uri */
            link: string;
            /** @description Readable text (Markdown, D-crawl-content). */
            content: string;
            metadata?: components["schemas"]["CrawlMetadata"];
        } & {
            [key: string]: unknown;
        };
        CrawlResponse: {
            crawlParameters: {
                /** Format: uri */
                url: string;
            };
            results: components["schemas"]["CrawlResult"];
        };
        CrawlBatchResponse: components["schemas"]["CrawlResponse"][];
        /**
         * @default {
         *       "width": 1440,
         *       "height": 900,
         *       "device_scale_factor": 1
         *     }
         */
        ScreenshotViewport: {
            /** @default 1440 */
            width?: number;
            /** @default 900 */
            height?: number;
            /** @default 1 */
            device_scale_factor?: number;
        };
        ScreenshotRequest: {
            /** Format: uri */
            url: string;
            /**
             * @default png
             * @enum {string}
             */
            format?: "png" | "jpeg" | "webp";
            /**
             * @description Capture the whole document.
             * @default false
             */
            full_page?: boolean;
            viewport?: components["schemas"]["ScreenshotViewport"];
            /**
             * @description When the page counts as ready.
             * @default load
             * @enum {string}
             */
            wait_until?: "domcontentloaded" | "load" | "networkidle";
            /** @description CSS selector to wait for (D-screenshot-readiness). */
            wait_for_selector?: string;
            /** @description CSS selector; capture only that element (D-screenshot-readiness). */
            selector?: string;
            /** @default 0 */
            delay_ms?: number;
            /** @default 20000 */
            timeout_ms?: number;
            /** @description Applies to jpeg and webp; ignored for png (D-screenshot-quality). */
            quality?: number;
            /** @default false */
            omit_background?: boolean;
            /**
             * @default light
             * @enum {string}
             */
            color_scheme?: "light" | "dark";
            /**
             * @default disabled
             * @enum {string}
             */
            animations?: "disabled" | "allow";
        };
        SitemapRequest: {
            /** Format: uri */
            url: string;
            /**
             * @default sitemap
             * @enum {string}
             */
            type?: "sitemap" | "all";
        };
        SitemapResponse: {
            links: string[];
        };
        TrendingRequest: {
            /** @description Platform; `github` or `hackernews` (D-trending-platforms). */
            search_service: string;
            /** @description No upper bound or default in the contract; defaults to 10 and is capped at 50 (D-trending-platforms). */
            max_results?: number;
        };
        TrendingResult: {
            title: string;
            /** Format: uri */
            url: string;
            /** @description Left out when the item has none; `null` only in the mock's contract-edge mode (D-trending-description). */
            description?: string | null;
        };
        TrendingResponse: {
            trendingParameters: components["schemas"]["TrendingRequest"];
            results: components["schemas"]["TrendingResult"][];
        };
        ExtractRequest: {
            /** Format: uri */
            url: string;
            /** @description Natural-language instruction. */
            prompt?: string;
            /** @description A JSON Schema describing the wanted output, or the OpenAI-style wrapper (D-extract-response-format). */
            response_format?: {
                [key: string]: unknown;
            };
        };
        ExtractResponse: {
            /** @constant */
            success: true;
            extractParameters: {
                /** Format: uri */
                url: string;
            };
            /** @description Any JSON value; its shape follows the `response_format` supplied (D-extract-engine). */
            results: unknown;
        };
        DeepcrawlRequest: {
            /** Format: uri */
            url: string;
            /**
             * @description `sitemap` (the default) crawls the links the sitemap declares; `all` every findable link (D-deepcrawl-type).
             * @enum {string}
             */
            type?: "sitemap" | "all";
        };
        DeepcrawlAcceptedResponse: {
            taskId: string;
            /** @constant */
            status: "queued";
        };
        /** @description States move queued → waiting → processing → completed, or to failed (D-deepcrawl-states). */
        DeepcrawlStatusResponse: {
            taskId: string;
            /** @enum {string} */
            status?: "queued" | "waiting" | "processing" | "completed" | "failed" | "not_found";
            /** @description Present once the task has finished, `true` when completed, `false` when failed or unknown (D-deepcrawl-success). */
            success?: boolean;
            message?: string;
            error?: string | null;
            /** @description Locator of the packaged result. */
            r2Key?: string;
            /**
             * Format: uri
             * @description Where the packaged result is fetched.
             */
            zipUrl?: string | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description The 404 body of the status operation: a status response with `status: not_found` that also carries the error
         *     members `ok`, `error`, `message` and `code` (D-status-not-found). The RFC 9457 `status` member is left out
         *     because the status response uses that name for the task state.
         */
        DeepcrawlNotFound: components["schemas"]["DeepcrawlStatusResponse"] & {
            /** @constant */
            status: "not_found";
            /** @constant */
            ok: false;
            error: string;
            message: string;
            code?: string;
        };
        /** @description `manifest.json` at the root of the deepcrawl zip (D-deepcrawl-zip). */
        DeepcrawlManifest: {
            taskId: string;
            /** Format: uri */
            url: string;
            /** @enum {string} */
            type: "sitemap" | "all";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            completedAt: string;
            /**
             * @description The limit that stopped the crawl before every discovered page was packaged (pages, bytes of documents, duration); null when the crawl ran to its end (D-deepcrawl-zip).
             * @enum {string|null}
             */
            limitReached?: "pages" | "bytes" | "duration" | null;
            pages: {
                /** Format: uri */
                url: string;
                /** @description Path of the Markdown document in the zip; null when the page failed. */
                path: string | null;
                title?: string | null;
                /** @description HTTP status of the page fetch (0 when unreachable). */
                status: number;
                bytes: number;
            }[];
        };
        /** @description `status: ok`; `version` is the interface version the implementation serves (D-health). */
        HealthResponse: {
            status: string;
            /** Format: date-time */
            timestamp?: string;
            version?: string;
        };
        UsageResponse: {
            usage: number;
            user_id?: string | null;
            /** @enum {string} */
            credential_type: "api_key" | "oauth";
            client_id?: string | null;
        };
        ApiErrorField: {
            /** @description JSON Pointer of the violated field (D-error-codes). */
            field?: string;
            message?: string;
            /** @description The JSON Schema keyword that failed (D-error-codes). */
            code?: string;
        };
        /**
         * @description The contract's error body. `application/problem+json` for 402. plumbline always sends `ok`, `error`, `message`
         *     and a stable `code` from its error catalogue (D-error-body); the contract marks no field required.
         */
        ApiError: {
            /** @constant */
            ok?: false;
            error?: string;
            /** @description With `errors[]`, the first violation and how many more there are (D-validation-message). */
            message?: string;
            errors?: components["schemas"]["ApiErrorField"][];
            /** Format: uri */
            type?: string;
            title?: string;
            status?: number;
            detail?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 9728 protected-resource metadata. */
        ProtectedResourceMetadata: {
            /** Format: uri */
            resource: string;
            authorization_servers: string[];
            bearer_methods_supported?: string[];
            scopes_supported?: string[];
            /** Format: uri */
            resource_documentation?: string;
        };
        /** @description RFC 9727 API catalog, an RFC 9264 linkset (D-api-catalog). */
        ApiCatalog: {
            linkset: ({
                /** Format: uri */
                anchor: string;
            } & {
                [key: string]: {
                    /** Format: uri-reference */
                    href: string;
                    type?: string;
                }[];
            })[];
        };
        /** @description MCP server card, the v1 schema of the server-card extension that tracks SEP-2127 (D-mcp-server-card). */
        McpServerCard: {
            /** @constant */
            $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
            name: string;
            version: string;
            title?: string;
            description?: string;
            /** Format: uri */
            websiteUrl?: string;
            remotes: {
                /** @constant */
                type: "streamable-http";
                /** Format: uri */
                url: string;
                supportedProtocolVersions?: string[];
                headers?: {
                    name: string;
                    description?: string;
                    isRequired?: boolean;
                    isSecret?: boolean;
                }[];
            }[];
        };
        /** @description Agent Skills Discovery index, draft 0.2.0 (D-agent-skills). */
        AgentSkillsIndex: {
            /** @constant */
            $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
            skills: {
                name: string;
                /** @enum {string} */
                type: "skill-md" | "archive";
                description: string;
                /** Format: uri-reference */
                url: string;
                digest: string;
            }[];
        };
    };
    responses: {
        /** @description Malformed JSON, a non-JSON content type, a body that is neither an object nor a non-empty array, or a bad value caught outside schema validation (D-validation-status). */
        BadRequest: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description A malformed, unknown or revoked bearer credential (and no credential at all on `/usage`) (D-auth). */
        Unauthorized: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                "WWW-Authenticate": components["headers"]["WwwAuthenticateBearer"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /**
         * @description An anonymous call to a paid operation (the MPP payment challenge), or a balance that cannot cover the call
         *     (D-auth, D-payment-challenge).
         */
        PaymentRequired: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                "WWW-Authenticate": components["headers"]["WwwAuthenticatePayment"];
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ApiError"];
            };
        };
        /** @description The screenshot target failed URL-safety or DNS checks. */
        Forbidden: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The crawl target confirmed the URL does not exist (charged, D-charging). */
        NotFound: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The crawl target is permanently gone (charged, D-charging). */
        Gone: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Schema validation failed; `errors[]` lists every violated field (D-validation-status, D-error-codes). */
        ValidationError: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Rate limit reached (D-rate-limits). */
        TooManyRequests: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                "Retry-After": components["headers"]["RetryAfter"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Unexpected failure. */
        InternalServerError: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description An upstream failed or timed out (not charged, D-charging). */
        BadGateway: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description A feedback body over 16 KiB, refused before it is parsed (D-feedback). */
        PayloadTooLarge: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description A feedback body whose Content-Type is not JSON (D-feedback). */
        UnsupportedMediaType: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The renderer, or the feedback store, is temporarily unavailable. */
        ServiceUnavailable: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The page did not become ready within `timeout_ms`. */
        GatewayTimeout: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description The request id, echoed from an incoming `x-request-id` or generated (D-headers).
         * @example req_8c1b0a6f2e
         */
        RequestId: string;
        /**
         * @description Every API response: `</openapi.json>; rel="service-desc", </docs>; rel="service-doc", </health>; rel="status"`
         *     (D-headers).
         * @example </openapi.json>; rel="service-desc", </docs>; rel="service-doc", </health>; rel="status"
         */
        Link: string;
        /**
         * @description RFC 6750 / RFC 9728 challenge naming the protected-resource metadata, e.g.
         *     `Bearer error="invalid_token", resource_metadata="{base_url}/.well-known/oauth-protected-resource"` (D-auth).
         */
        WwwAuthenticateBearer: string;
        /**
         * @description Payment scheme challenge(s), `Payment id="…", realm="…", method="…", intent="charge", request="<base64url
         *     JSON>", expires="…"`, followed by a Bearer challenge naming the protected-resource metadata
         *     (D-payment-challenge).
         */
        WwwAuthenticatePayment: string;
        /**
         * @description On an answer paid with a Payment credential: the payment's receipt, base64url of JSON `{method, reference,
         *     status: "success", timestamp}` (D-payment-challenge, D-payment-charging).
         */
        PaymentReceipt: string;
        /** @description The payment challenge is never cached (D-payment-challenge). */
        CacheControlNoStore: "no-store";
        /** @description Seconds to wait before retrying (D-rate-limits). */
        RetryAfter: string;
        /** @description IETF RateLimit header, e.g. `"default";r=0;t=42` (D-rate-limits). */
        RateLimit: string;
        /** @description IETF RateLimit-Policy header, e.g. `"default";q=200;w=60` (D-rate-limits). */
        RateLimitPolicy: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchParameters"] | components["schemas"]["SearchBatchRequest"];
            };
        };
        responses: {
            /** @description A search response (single form) or a search batch response (array form). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"] | components["schemas"]["SearchBatchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    news: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewsParameters"] | components["schemas"]["NewsBatchRequest"];
            };
        };
        responses: {
            /** @description A news response (single form) or a news batch response (array form). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsResponse"] | components["schemas"]["NewsBatchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    ask: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AskRequest"];
            };
        };
        responses: {
            /** @description The interpreted request and the relevant results, best first. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AskResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    feedback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedbackRequest"];
            };
        };
        responses: {
            /** @description The report is stored. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    crawl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CrawlRequest"] | components["schemas"]["CrawlBatchRequest"];
            };
        };
        responses: {
            /** @description A crawl response, or for an array body an array of crawl responses. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CrawlResponse"] | components["schemas"]["CrawlBatchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    screenshot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScreenshotRequest"];
            };
        };
        responses: {
            /** @description The image, in the requested format. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    sitemap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SitemapRequest"];
            };
        };
        responses: {
            /** @description The discovered links. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SitemapResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    trending: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TrendingRequest"];
            };
        };
        responses: {
            /** @description The trending list. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrendingResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    extract: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExtractRequest"];
            };
        };
        responses: {
            /** @description The extracted data, shaped by `response_format`. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    deepcrawl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeepcrawlRequest"];
            };
        };
        responses: {
            /** @description The task was accepted and queued. */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Payment-Receipt": components["headers"]["PaymentReceipt"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeepcrawlAcceptedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    deepcrawlStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example dc_5f0c9e2a7b1d4c3e8a6f0b2d9c4e1a7f */
                taskId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task's current status. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeepcrawlStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description No task with this id (or none of the caller's account: D-status-auth). The body is both an error and a status response with `status: not_found`
             *     (D-status-not-found).
             */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeepcrawlNotFound"];
                };
            };
            500: components["responses"]["InternalServerError"];
            502: components["responses"]["BadGateway"];
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
            500: components["responses"]["InternalServerError"];
        };
    };
    usage: {
        parameters: {
            query?: {
                /** @description Validated, then ignored; usage is the remaining balance whatever the period (D-usage-period). */
                period?: "day" | "week" | "month" | "year";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance and the kind of credential used. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document, as JSON. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The protected-resource metadata, naming the authorization server. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProtectedResourceMetadata"];
                };
            };
        };
    };
    getMcpProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MCP endpoint's protected-resource metadata. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProtectedResourceMetadata"];
                };
            };
        };
    };
    getApiCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API catalog. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/linkset+json": components["schemas"]["ApiCatalog"];
                };
            };
        };
    };
    getMcpServerCard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server card. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerCard"];
                };
            };
        };
    };
    getAgentSkillsIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The skills index. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentSkillsIndex"];
                };
            };
        };
    };
    getAgentSkill: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The skill, Markdown with YAML front matter (`name`, `description`). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown": string;
                };
            };
        };
    };
}

/** Convenience aliases: the component schemas by name. */
export type Schemas = components["schemas"];
