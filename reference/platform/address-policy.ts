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
const RANGES: Range[] = [
  { net: "169.254.169.254", prefix: 32, kind: "cloud metadata" },
  { net: "100.100.100.200", prefix: 32, kind: "cloud metadata" },
  { net: "fd00:ec2::254", prefix: 128, kind: "cloud metadata" },
  { net: "0.0.0.0", prefix: 8, kind: "unspecified (0.0.0.0/8)" },
  { net: "10.0.0.0", prefix: 8, kind: "private (10/8)" },
  { net: "100.64.0.0", prefix: 10, kind: "carrier-grade NAT (100.64/10)" },
  { net: "127.0.0.0", prefix: 8, kind: "loopback" },
  { net: "169.254.0.0", prefix: 16, kind: "link-local" },
  { net: "172.16.0.0", prefix: 12, kind: "private (172.16/12)" },
  { net: "192.0.0.0", prefix: 24, kind: "IETF protocol assignments" },
  { net: "192.0.2.0", prefix: 24, kind: "documentation" },
  { net: "192.168.0.0", prefix: 16, kind: "private (192.168/16)" },
  { net: "198.18.0.0", prefix: 15, kind: "benchmarking" },
  { net: "198.51.100.0", prefix: 24, kind: "documentation" },
  { net: "203.0.113.0", prefix: 24, kind: "documentation" },
  { net: "224.0.0.0", prefix: 4, kind: "multicast" },
  { net: "240.0.0.0", prefix: 4, kind: "reserved (240/4, broadcast)" },
  { net: "::", prefix: 128, kind: "unspecified (::)" },
  { net: "::1", prefix: 128, kind: "loopback" },
  { net: "100::", prefix: 64, kind: "discard-only" },
  { net: "2001:db8::", prefix: 32, kind: "documentation" },
  { net: "fc00::", prefix: 7, kind: "private (fc00::/7)" },
  { net: "fe80::", prefix: 10, kind: "link-local" },
  { net: "ff00::", prefix: 8, kind: "multicast" },
];

const LISTS = RANGES.map((r) => {
  const list = new BlockList();
  list.addSubnet(r.net, r.prefix, isIP(r.net) === 6 ? "ipv6" : "ipv4");
  return { list, kind: r.kind };
});

/** The eight 16-bit groups of an IPv6 address (no embedded dotted quad: callers match those as IPv4). */
function groups(ip: string): number[] {
  const [head, tail = ""] = ip.split("::");
  const parse = (s: string) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const h = parse(head);
  const t = ip.includes("::") ? parse(tail) : [];
  return [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

/** IPv4 carried inside an IPv6 address by NAT64 (64:ff9b::/96) or 6to4 (2002::/16); null otherwise. */
function embeddedIpv4(ip: string): string | null {
  if (ip.includes(".")) return null;
  const g = groups(ip);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  const pair = nat64 ? [g[6], g[7]] : g[0] === 0x2002 ? [g[1], g[2]] : null;
  return pair ? [pair[0] >> 8, pair[0] & 255, pair[1] >> 8, pair[1] & 255].join(".") : null;
}

/**
 * Why `ip` must not be fetched (e.g. "loopback"), or null when it is a public address. IPv4-mapped IPv6
 * (::ffff:127.0.0.1) is matched by the IPv4 ranges (BlockList does so); NAT64 and 6to4 are unwrapped.
 */
export function forbiddenReason(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return "not an IP address";
  const type = family === 6 ? "ipv6" : "ipv4";
  for (const { list, kind } of LISTS) if (list.check(bare, type)) return kind;
  const inner = family === 6 ? embeddedIpv4(bare) : null;
  return inner ? forbiddenReason(inner) : null;
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
