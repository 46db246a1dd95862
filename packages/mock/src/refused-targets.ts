// D-target-refusal on the mock: a target the URL-safety guard refuses answers 403 on screenshot and 400
// (PLB_BAD_VALUE) on crawl, sitemap, extract and deepcrawl, uncharged (a failed engine result is never charged).
// The mock resolves no DNS, so it judges the URL's host as written (literalHostReason: IP literals in the refused
// ranges, localhost, cloud metadata names), with the reference's own address classification. `allowPrivateNetwork`
// opens loopback and private hosts for client teams whose tests crawl their own localhost, as the reference's flag
// does; cloud metadata and link-local stay refused either way.

import type { ErrorCode } from "@plumbline-kit/contract";
import { literalHostReason } from "@plumbline-kit/platform/address-policy";
import type { DeepcrawlService } from "@plumbline-kit/platform/deepcrawl-service";
import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";

type Refusal = EngineResult<never> & { ok: false };

/** The refusal of `url` with `code`, or null when the mock may serve it. */
export function targetRefusal(url: string, code: ErrorCode, allowPrivateNetwork: boolean): Refusal | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null; // not a URL: the engines answer for that themselves
  }
  // a URL that is not http(s), or a name that cannot name a host, was refused before (platform/target-url.ts)
  const reason = literalHostReason(host, allowPrivateNetwork);
  return reason
    ? {
        ok: false,
        code,
        message: `The target host ${host} is a ${reason} address; this service fetches public addresses only`,
      }
    : null;
}

/** Engines whose target-taking operations refuse guarded hosts before the synthetic engine runs. */
export function refuseTargets(engines: Engines, allowPrivateNetwork: boolean): Engines {
  const guard =
    <R extends { url: string }, T>(
      code: ErrorCode,
      run: (request: R, ctx: EngineContext) => Promise<EngineResult<T>>,
    ) =>
    (request: R, ctx: EngineContext): Promise<EngineResult<T>> => {
      const refused = targetRefusal(request.url, code, allowPrivateNetwork);
      return refused ? Promise.resolve(refused) : run(request, ctx);
    };
  return {
    ...engines,
    crawl: guard("PLB_BAD_VALUE", engines.crawl),
    screenshot: guard("PLB_TARGET_FORBIDDEN", engines.screenshot),
    sitemap: guard("PLB_BAD_VALUE", engines.sitemap),
    extract: guard("PLB_BAD_VALUE", engines.extract),
  };
}

/** The deepcrawl service refusing guarded hosts when a task is started (400: deepcrawl lists no 403). */
export function refuseDeepcrawlTargets(service: DeepcrawlService, allowPrivateNetwork: boolean): DeepcrawlService {
  return {
    start: (accountId, request, ctx) =>
      Promise.resolve(targetRefusal(request.url, "PLB_BAD_VALUE", allowPrivateNetwork)).then(
        (refused) => refused ?? service.start(accountId, request, ctx),
      ),
    get: (taskId) => service.get(taskId),
    archive: (taskId) => service.archive(taskId),
    links: service.links,
  };
}
