// @plumbline-kit/reference: the reference implementation: startReference() (the `plumbline reference` command's
// programmatic API), its OAuth server, and its search index.
export {
  type AuthServerProcessOptions,
  type RunningAuthServer,
  startAuthServer,
} from "./auth/start-auth-server.ts";
export type {
  DeepcrawlLimits,
  DeepcrawlPage,
  DeepcrawlPageHook,
  DeepcrawlSettings,
} from "./deepcrawl/deepcrawl-options.ts";
export type { S3PackageStoreOptions } from "./deepcrawl/s3-package-store-options.ts";
export { createPageIndex } from "./search/create-page-index.ts";
export { deepcrawlIndexSink, indexingCrawl } from "./search/index-feeds.ts";
export { type IndexSitesOptions, type IndexSitesResult, indexSites } from "./search/index-sites.ts";
export type { IndexedPage, IndexHit, IndexQuery, PageIndex } from "./search/page-index.ts";
export { PUBLIC_SEARCH_APIS, type SearchUpstreams } from "./search/search-backends.ts";
export { type ReferenceOptions, type RunningReference, startReference } from "./start-reference.ts";
