// "The URLs declared for the requested host" (interface-spec "POST /sitemap" 1): a URL belongs to the requested host
// when its host (name and port) is the same, http or https alike. `www.` is not a host of its own here: sites
// declare `https://www.example.com/…` in the sitemap of `example.com` (which redirects there) and the reverse, and a
// strict comparison would return nothing for them.
const site = (host: string) => host.toLowerCase().replace(/^www\./, "");

/** A test for "same host as `requestedUrl`". */
export function sameHostAs(requestedUrl: string): (url: string) => boolean {
  const wanted = site(new URL(requestedUrl).host);
  return (url) => {
    try {
      return site(new URL(url).host) === wanted;
    } catch {
      return false;
    }
  };
}
