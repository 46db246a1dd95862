// `format: uri` strings within minLength/maxLength. Only http(s) URLs on the reserved example domains (RFC 2606):
// a schema-valid `mailto:` URI is a legitimate 400 (D-target-refusal: not http(s)) on a crawl, so it says nothing about
// validation. Path segments are letters and hyphens, so the mock's `/status/NNN` failure convention never fires.
import fc from "fast-check";

const HOSTS = ["example.com", "example.org", "example.net", "www.example.com", "docs.example.org"];
const SHORTEST = "http://example.com";
const segment = fc.stringMatching(/^[a-z][a-z-]{0,11}$/);

function padTo(url: string, length: number): string {
  const withSlash = url.includes("/", 8) ? url : `${url}/`;
  return withSlash.length >= length ? withSlash : withSlash + "a".repeat(length - withSlash.length);
}

export function uriArbitrary(minLength = 0, maxLength?: number): fc.Arbitrary<string> {
  const typical = fc
    .record({
      scheme: fc.constantFrom("https", "http"),
      host: fc.constantFrom(...HOSTS),
      path: fc.array(segment, { maxLength: 4 }),
      query: fc.option(fc.tuple(segment, segment), { nil: undefined }),
      slash: fc.boolean(),
    })
    .map(({ scheme, host, path, query, slash }) => {
      const p = path.length ? `/${path.join("/")}${slash ? "/" : ""}` : slash ? "/" : "";
      return `${scheme}://${host}${p}${query ? `?${query[0]}=${query[1]}` : ""}`;
    });
  const edges: string[] = [SHORTEST];
  if (maxLength !== undefined) edges.push(padTo("https://example.com/", maxLength));
  const fits = (u: string) => u.length >= minLength && (maxLength === undefined || u.length <= maxLength);
  return fc
    .oneof({ arbitrary: typical, weight: 4 }, { arbitrary: fc.constantFrom(...edges), weight: 1 })
    .map((u) => (u.length < minLength ? padTo(u, minLength) : u))
    .filter(fits);
}
