// Synthetic /trending (interface-spec, POST /trending; D-trending-platforms): github answers repositories
// ("owner/name" at https://github.com/owner/name), hackernews answers stories on varied hosts.
// trendingParameters echoes the request as sent (D-echo); the item count is trendingLimit(). Some hackernews
// stories have no description: the field is left out (D-trending-description), as the service's own tools expect.
// A null `description` is what the contract allows and what a real client mishandled (contract-notes), so the
// contract-edge mode (variability "max") answers null for those, and also nulls and drops github's.

import type { Contract, Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { trendingLimit } from "@plumbline-kit/platform/request-defaults";
import { trendingResult } from "@plumbline-kit/platform/trending-result";
import { createRng, type Rng } from "./rng.ts";
import { sentence, slug, titleCase } from "./text.ts";
import { FILLER_TOPICS, GITHUB_OWNERS, REPO_WORDS, WEB_HOSTS } from "./vocabulary.ts";

type TrendingResult = Schemas["TrendingResult"];

export function createTrendingEngine(contract: Contract) {
  return async (
    request: Schemas["TrendingRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<Schemas["TrendingResponse"]>> => {
    const platform = request.search_service;
    if (platform !== "github" && platform !== "hackernews") {
      return { ok: false, code: "PLB_BAD_VALUE", message: `Unknown trending platform "${platform}"` };
    }
    const rng = createRng(ctx.seed, "trending", request);
    const results: TrendingResult[] = [];
    const seen = new Set<string>();
    for (let i = 0, guard = 0; results.length < trendingLimit(contract, request) && guard < 1000; guard++, i++) {
      const item = platform === "github" ? repository(rng) : story(rng, i);
      if (seen.has(item.url)) continue;
      seen.add(item.url);
      if (ctx.variability === "max") {
        if (!("description" in item)) item.description = null;
        const roll = rng.float();
        if (roll < 0.25) item.description = null;
        else if (roll < 0.45) delete item.description;
      }
      results.push(item);
    }
    return { ok: true, value: { trendingParameters: structuredClone(request), results } };
  };
}

function repository(rng: Rng): TrendingResult {
  const owner = rng.pick(GITHUB_OWNERS);
  const name = rng.sample(REPO_WORDS, rng.int(1, 2)).join("-");
  const topic = rng.pick(FILLER_TOPICS);
  return trendingResult(
    `${owner}/${name}`,
    `https://github.com/${owner}/${name}`,
    `${titleCase(name.replace(/-/g, " "))}: a ${rng.pick(["fast", "small", "typed"])} toolkit for ${topic}.`,
  );
}

function story(rng: Rng, n: number): TrendingResult {
  const topic = rng.sample(FILLER_TOPICS, 2);
  const kind = rng.float();
  if (kind < 0.2) {
    // Ask HN and Show HN posts link to the discussion itself and often have no summary
    const id = 40_000_000 + rng.int(0, 9_999_999);
    return trendingResult(
      `${rng.pick(["Ask HN", "Show HN"])}: ${titleCase(topic.join(" and "))} in ${2020 + (n % 7)}?`,
      `https://news.ycombinator.com/item?id=${id}`,
      rng.chance(0.6) ? null : sentence(rng, topic[0]),
    );
  }
  const host = rng.pick(WEB_HOSTS.filter((h) => h !== "news.ycombinator.com"));
  return trendingResult(
    rng.pick([
      `The hidden cost of ${topic[0]}`,
      `Why we rewrote our ${topic[0]} stack`,
      `${titleCase(topic[0])} is not ${topic[1]}`,
      `Lessons from ten years of ${topic[0]}`,
    ]),
    `https://${host}/${slug(topic)}-${n + 1}`,
    rng.chance(0.3) ? null : sentence(rng, topic.join(" and ")),
  );
}
