// Which addresses the reference and the mock refuse to fetch (issue 5, "POST /crawl": the SSRF guard refuses loopback,
// private, link-local and metadata addresses unless --allow-private-network). Checked on the address a socket will
// actually connect to (guarded-lookup.ts), never on the host name alone.
import { BlockList, isIP } from "node:net";

interface Range {
  net: string;
  prefix: number;
  kind: string;
}

// Cloud metadata endpoints first, so a refusal names them rather than the wider range that holds them.
const V4_RANGES: Range[] = [
  { net: "169.254.169.254", prefix: 32, kind: "cloud metadata" },
  { net: "100.100.100.200", prefix: 32, kind: "cloud metadata" },
  { net: "0.0.0.0", prefix: 8, kind: "unspecified (0.0.0.0/8)" },
  { net: "10.0.0.0", prefix: 8, kind: "private (10/8)" },
  { net: "100.64.0.0", prefix: 10, kind: "carrier-grade NAT (100.64/10)" },
  { net: "127.0.0.0", prefix: 8, kind: "loopback" },
  { net: "169.254.0.0", prefix: 16, kind: "link-local" },
  { net: "172.16.0.0", prefix: 12, kind: "private (172.16/12)" },
  { net: "192.0.0.0", prefix: 24, kind: "IETF protocol assignments" },
  { net: "192.0.2.0", prefix: 24, kind: "documentation" },
  { net: "192.88.99.0", prefix: 24, kind: "6to4 relay anycast (deprecated)" },
  { net: "192.168.0.0", prefix: 16, kind: "private (192.168/16)" },
  { net: "198.18.0.0", prefix: 15, kind: "benchmarking" },
  { net: "198.51.100.0", prefix: 24, kind: "documentation" },
  { net: "203.0.113.0", prefix: 24, kind: "documentation" },
  { net: "224.0.0.0", prefix: 4, kind: "multicast" },
  { net: "240.0.0.0", prefix: 4, kind: "reserved (240/4, broadcast)" },
];

// IPv6 ranges judged on the address itself (IANA's special-purpose registry: not globally reachable). Forms that
// carry an IPv4 address are unwrapped and judged by it (embeddedIpv4); anything outside 2000::/3, the only block
// allocated for global unicast, is refused too (ipv6Reason).
const V6_RANGES: Range[] = [
  { net: "fd00:ec2::254", prefix: 128, kind: "cloud metadata" },
  { net: "::", prefix: 128, kind: "unspecified (::)" },
  { net: "::1", prefix: 128, kind: "loopback" },
  { net: "64:ff9b:1::", prefix: 48, kind: "NAT64 local-use (64:ff9b:1::/48)" },
  { net: "100::", prefix: 64, kind: "discard-only" },
  { net: "2001:2::", prefix: 48, kind: "benchmarking" },
  { net: "2001:db8::", prefix: 32, kind: "documentation" },
  { net: "3fff::", prefix: 20, kind: "documentation" },
  { net: "fc00::", prefix: 7, kind: "private (fc00::/7)" },
  { net: "fe80::", prefix: 10, kind: "link-local" },
  { net: "fec0::", prefix: 10, kind: "site-local (fec0::/10, deprecated)" },
  { net: "ff00::", prefix: 8, kind: "multicast" },
];

const listsOf = (ranges: Range[], type: "ipv4" | "ipv6") =>
  ranges.map((r) => {
    const list = new BlockList();
    list.addSubnet(r.net, r.prefix, type);
    return { list, kind: r.kind };
  });
const V4_LISTS = listsOf(V4_RANGES, "ipv4");
const V6_LISTS = listsOf(V6_RANGES, "ipv6");

type Parsed = { family: 4; text: string } | { family: 6; text: string; groups: number[] };

/**
 * An address in any spelling, as the URL standard's host parser reads it (the one every browser uses): IPv4 in
 * dotted, decimal (2130706433), octal (0177.0.0.1), hex (0x7f.1) and short (127.1) forms becomes a dotted quad;
 * IPv6 in any case, compressed or not, with an embedded dotted quad (::ffff:127.0.0.1) or a zone (fe80::1%eth0),
 * becomes its canonical all-hex text, split into its eight 16-bit groups. Null when it is no address at all.
 */
export function parseAddress(ip: string): Parsed | null {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIP(bare) === 4) return { family: 4, text: bare };
  let host: string;
  try {
    host = new URL(isIP(bare) === 6 ? `http://[${bare}]/` : `http://${bare}/`).hostname;
  } catch {
    return null;
  }
  if (isIP(host) === 4) return { family: 4, text: host };
  const text = host.replace(/^\[|\]$/g, "");
  if (isIP(text) !== 6) return null;
  const [head, tail] = text.split("::");
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  const groups = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  return { family: 6, text, groups };
}

const dotted = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
const zeros = (g: number[], from: number, to: number) => g.slice(from, to).every((x) => x === 0);

/**
 * The IPv4 addresses an IPv6 address carries, and whether it is only a spelling of them (then their verdict is
 * its verdict, public ones allowed) or a tunnel of its own in global unicast space (then a non-public one refuses it):
 * IPv4-compatible ::a.b.c.d (::/96, deprecated), IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d
 * (RFC 2765), NAT64's well-known 64:ff9b::/96 (RFC 6052), 6to4 2002:AABB:CCDD::/48 (RFC 3056) and Teredo
 * 2001:0::/32 (RFC 4380: the server's address in clear, the client's obfuscated, every bit inverted).
 */
function embeddedIpv4(g: number[]): { v4: string[]; translation: boolean } | null {
  if (zeros(g, 0, 6)) return { v4: [dotted(g[6], g[7])], translation: true };
  if (zeros(g, 0, 5) && g[5] === 0xffff) return { v4: [dotted(g[6], g[7])], translation: true };
  if (zeros(g, 0, 4) && g[4] === 0xffff && g[5] === 0) return { v4: [dotted(g[6], g[7])], translation: true };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(g, 2, 6)) return { v4: [dotted(g[6], g[7])], translation: true };
  if (g[0] === 0x2002) return { v4: [dotted(g[1], g[2])], translation: false };
  if (g[0] === 0x2001 && g[1] === 0)
    return { v4: [dotted(g[2], g[3]), dotted(g[6] ^ 0xffff, g[7] ^ 0xffff)], translation: false };
  return null;
}

function ipv4Reason(ip: string): string | null {
  for (const { list, kind } of V4_LISTS) if (list.check(ip, "ipv4")) return kind;
  return null;
}

function ipv6Reason(text: string, groups: number[]): string | null {
  for (const { list, kind } of V6_LISTS) if (list.check(text, "ipv6")) return kind;
  const inner = embeddedIpv4(groups);
  if (inner) {
    for (const v4 of inner.v4) {
      const reason = ipv4Reason(v4);
      if (reason) return reason;
    }
    if (inner.translation) return null;
  }
  // 2000::/3 is global unicast; the rest of the space is reserved or unassigned, and no public host lives there
  return groups[0] >> 13 === 1 ? null : "reserved (outside 2000::/3 global unicast)";
}

/**
 * Why `ip` must not be fetched (e.g. "loopback"), or null when it is a public address. Every spelling of an address
 * is judged as the address it is (parseAddress), and an IPv6 address carrying an IPv4 one by that IPv4 address
 * (embeddedIpv4): ::127.0.0.1, ::ffff:0:127.0.0.1, 64:ff9b::7f00:1, 2002:7f00:1:: are all loopback. Something that
 * is no address at all is refused ("not an IP address"): the policy never lets through what it cannot read.
 */
export function forbiddenReason(ip: string): string | null {
  const parsed = parseAddress(ip);
  if (!parsed) return "not an IP address";
  return parsed.family === 4 ? ipv4Reason(parsed.text) : ipv6Reason(parsed.text, parsed.groups);
}

/**
 * Kinds still refused with `--allow-private-network`: the flag exists for fixture sites on loopback and private
 * networks, and nothing a test needs lives on a cloud metadata endpoint or a link-local address (which holds them).
 */
const ALWAYS_FORBIDDEN = new Set(["cloud metadata", "link-local"]);

/** forbiddenReason() as `--allow-private-network` narrows it: cloud metadata and link-local addresses only. */
export function alwaysForbiddenReason(ip: string): string | null {
  const reason = forbiddenReason(ip);
  return reason && ALWAYS_FORBIDDEN.has(reason) ? reason : null;
}

/** Host names of cloud metadata services (GCP, Azure's and AWS's internal names, Alibaba's). */
const METADATA_NAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
]);

/**
 * Why a URL's host must not be fetched, judged on the host as written, with no DNS (the mock resolves nothing):
 * an IP literal in a refused range, `localhost` and `*.localhost` (RFC 6761 §6.3: loopback by definition), or a
 * well-known cloud metadata name. The reference judges resolved addresses instead (guarded-lookup.ts).
 * `hostname` is a WHATWG URL's, so numeric IPv4 forms (`http://2852039166/`) arrive as dotted quads.
 */
export function literalHostReason(hostname: string, allowPrivateNetwork = false): string | null {
  const host = normalizeHost(hostname);
  if (METADATA_NAMES.has(host)) return "cloud metadata";
  if (isIP(host)) return allowPrivateNetwork ? alwaysForbiddenReason(host) : forbiddenReason(host);
  if (allowPrivateNetwork) return null;
  return host === "localhost" || host.endsWith(".localhost") ? "loopback" : null;
}

/**
 * A URL host as the policy judges it (issue 12): a WHATWG URL's hostname is already lower-cased, IDNA-encoded and
 * percent-decoded; the trailing dot of a fully qualified name (`localhost.`) is dropped, so it names the same host
 * to the policy as to DNS.
 */
export function normalizeHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Why a host name cannot name any host (RFC 1123 §2.1, RFC 1035 §2.3.4: labels of 1-63 letters, digits and
 * hyphens, not at either end, 253 characters in all; underscores are tolerated, as resolvers do), or null. Such a
 * URL is a bad value (400), never a fetch that fails upstream. IP literals are not names and pass.
 */
export function malformedHostReason(hostname: string): string | null {
  const host = normalizeHost(hostname);
  if (isIP(host)) return null;
  if (host === "") return "an empty host name";
  if (host.length > 253) return "a host name longer than 253 characters";
  const bad = host.split(".").find((label) => !LABEL.test(label));
  if (bad === undefined) return null;
  if (bad === "") return "a host name with an empty label";
  if (bad.length > 63) return "a host name label longer than 63 characters";
  return `a host name label ("${bad}") that is not letters, digits and inner hyphens`;
}
