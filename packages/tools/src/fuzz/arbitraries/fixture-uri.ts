// `format: uri` strings from a fixture site (--fixture-url) instead of the reserved example domains: pages the
// fuzzer saw answer, now and then with a fragment (never sent to the server, RFC 3986 3.5: the same page, but a
// URL a target must echo verbatim, D-crawl-batch), the longest one padded by its fragment to maxLength; and, for
// an operation that passes a target's 404 and 410 through (crawl), one time in four a URL that answered 404 or 410
// or did not answer at all. Shrinking goes towards the first page.

import type { OperationSpec } from "@plumbline-kit/contract";
import fc from "fast-check";
import { passesTargetStatus } from "../checks/fetch-outcome.ts";
import type { FixtureSite } from "../http/fixture-site.ts";

const fragment = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

/** null when no URL of the site fits the bounds (the caller then keeps the example domains). */
export function fixtureUriArbitrary(
  site: FixtureSite,
  op: OperationSpec,
  minLength = 0,
  maxLength?: number,
): fc.Arbitrary<string> | null {
  const fits = (u: string) => u.length >= minLength && (maxLength === undefined || u.length <= maxLength);
  const pages = site.pages.filter((u) => !u.includes("#"));
  if (pages.filter(fits).length === 0) return null;
  const edges =
    maxLength !== undefined && pages[0].length + 1 < maxLength ? [`${pages[0]}#`.padEnd(maxLength, "a")] : [];
  const page = fc
    .oneof(
      { arbitrary: fc.constantFrom(...pages), weight: 6 },
      { arbitrary: fc.tuple(fc.constantFrom(...pages), fragment).map(([p, f]) => `${p}#${f}`), weight: 2 },
      ...(edges.length ? [{ arbitrary: fc.constantFrom(...edges), weight: 1 }] : []),
    )
    .filter(fits);
  const failing = passesTargetStatus(op) ? site.failing.filter(fits) : [];
  if (failing.length === 0) return page;
  return fc.oneof({ arbitrary: page, weight: 3 }, { arbitrary: fc.constantFrom(...failing), weight: 1 });
}
