// One trending result as the mock and the reference answer it (D-trending-description): a result without a
// description leaves the field out, as the service's own tools expect; `null`, also legal, is kept for the mock's
// contract-edge mode, which adds it on purpose.
import type { Schemas } from "@plumbline-kit/contract";

type TrendingResult = Schemas["TrendingResult"];

export function trendingResult(title: string, url: string, description: string | null | undefined): TrendingResult {
  return description ? { title, url, description } : { title, url };
}
