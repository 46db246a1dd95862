import { describe, expect, it } from "vitest";
import { alwaysForbiddenReason, forbiddenReason, literalHostReason, parseAddress } from "./address-policy.ts";

describe("address policy (issue 5 SSRF guard)", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private (10/8)"],
    ["172.16.0.1", "private (172.16/12)"],
    ["172.31.255.255", "private (172.16/12)"],
    ["192.168.1.1", "private (192.168/16)"],
    ["fd12:3456::1", "private (fc00::/7)"],
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT (100.64/10)"],
    ["0.0.0.0", "unspecified (0.0.0.0/8)"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["169.254.169.254", "cloud metadata"],
    ["fd00:ec2::254", "cloud metadata"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:a00:1", "private (10/8)"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:a9fe:a9fe::1", "cloud metadata"],
    ["[::1]", "loopback"],
  ])("refuses %s (%s)", (ip, kind) => {
    expect(forbiddenReason(ip)).toBe(kind);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "lets the public address %s through",
    (ip) => {
      expect(forbiddenReason(ip)).toBeNull();
    },
  );

  // Issue 38: ::127.0.0.1 and ::ffff:0:127.0.0.1 went through, and only a missing route stopped the connect.
  // Every spelling of a non-public address, each with the kind a refusal names.
  it.each([
    // IPv4-compatible (::/96, deprecated): the IPv4 address in the low 32 bits
    ["::127.0.0.1", "loopback"],
    ["::7f00:1", "loopback"],
    ["0:0:0:0:0:0:127.0.0.1", "loopback"],
    ["::10.0.0.1", "private (10/8)"],
    ["::169.254.169.254", "cloud metadata"],
    ["::2", "unspecified (0.0.0.0/8)"],
    // IPv4-mapped, in every spelling
    ["::ffff:7f00:1", "loopback"],
    ["::FFFF:127.0.0.1", "loopback"],
    ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
    ["0000:0000:0000:0000:0000:FFFF:127.0.0.1", "loopback"],
    ["::ffff:192.168.1.1", "private (192.168/16)"],
    ["::ffff:a9fe:a9fe", "cloud metadata"],
    // IPv4-translated (RFC 2765, ::ffff:0:0:0/96)
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:0:7f00:1", "loopback"],
    ["0:0:0:0:ffff:0:a00:1", "private (10/8)"],
    // NAT64: the well-known prefix carries the IPv4 address, the local-use /48 is never public
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a00:1", "private (10/8)"],
    ["64:ff9b::169.254.169.254", "cloud metadata"],
    ["64:ff9b:1::a00:1", "NAT64 local-use (64:ff9b:1::/48)"],
    ["64:ff9b:1:c0a8:100:100::", "NAT64 local-use (64:ff9b:1::/48)"],
    // 6to4 (2002:AABB:CCDD::/48)
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::", "private (192.168/16)"],
    ["2002:a00:1:5::1", "private (10/8)"],
    // Teredo (2001:0::/32): the server in clear, the client with every bit inverted
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"],
    ["2001:0:4136:e378:8000:63bf:3f57:fefe", "private (192.168/16)"],
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", "private (10/8)"],
    // IPv6 ranges of their own
    ["fec0::1", "site-local (fec0::/10, deprecated)"],
    ["feff:ffff::1", "site-local (fec0::/10, deprecated)"],
    ["fc00::1", "private (fc00::/7)"],
    ["fdff:ffff::1", "private (fc00::/7)"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["ff02::1", "multicast"],
    ["ff0e::101", "multicast"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified (::)"],
    ["0::0", "unspecified (::)"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["100::1", "discard-only"],
    ["2001:2::1", "benchmarking"],
    ["4000::1", "reserved (outside 2000::/3 global unicast)"],
    ["::1:0:0:1", "reserved (outside 2000::/3 global unicast)"],
    // IPv4 in odd spellings, as a resolver or a URL may write them
    ["2130706433", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["0x7f.1", "loopback"],
    ["127.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["017700000001", "loopback"],
    ["10.1", "private (10/8)"],
    ["3232235777", "private (192.168/16)"],
    ["0xa9.0xfe.0xa9.0xfe", "cloud metadata"],
    ["192.88.99.1", "6to4 relay anycast (deprecated)"],
    // what is no address at all is refused, never guessed at
    ["example.com", "not an IP address"],
    ["1.2.3.4.5", "not an IP address"],
    ["256.1.1.1", "not an IP address"],
    ["", "not an IP address"],
  ])("refuses %s (%s), whatever its spelling", (ip, kind) => {
    expect(forbiddenReason(ip)).toBe(kind);
  });

  it.each([
    "::ffff:808:808",
    "::ffff:93.184.216.34",
    "::ffff:0:8.8.8.8",
    "::8.8.8.8",
    "64:ff9b::808:808",
    "64:ff9b::93.184.216.34",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    "2a00:1450:4001:82a::200e",
    "2001:4860:4860::8888",
    "134744072",
    "0x8.0x8.0x8.0x8",
  ])("lets the public address %s through in any spelling", (ip) => {
    expect(forbiddenReason(ip)).toBeNull();
  });

  it("reads every spelling as the address it is", () => {
    expect(parseAddress("::ffff:127.0.0.1")).toEqual({
      family: 6,
      text: "::ffff:7f00:1",
      groups: [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1],
    });
    expect(parseAddress("[2001:DB8:0:0:1::1]")).toMatchObject({ text: "2001:db8::1:0:0:1" });
    expect(parseAddress("0x7f.1")).toEqual({ family: 4, text: "127.0.0.1" });
    expect(parseAddress("not an address")).toBeNull();
  });

  it("judges URL hosts as the URL standard reads them (the mock's literal policy, the reference's client)", () => {
    for (const [url, kind] of [
      ["http://[::127.0.0.1]/", "loopback"],
      ["http://[::ffff:0:127.0.0.1]/", "loopback"],
      ["http://[::ffff:7f00:1]:8080/", "loopback"],
      ["http://[64:ff9b::10.0.0.1]/", "private (10/8)"],
      ["http://[2002:a9fe:a9fe::]/", "cloud metadata"],
      ["http://[fec0::1]/", "site-local (fec0::/10, deprecated)"],
      ["http://2130706433/", "loopback"],
      ["http://0177.0.0.1/", "loopback"],
      ["http://0x7f.1/", "loopback"],
      ["http://127.1/", "loopback"],
    ])
      expect(literalHostReason(new URL(url).hostname), url).toBe(kind);
    expect(literalHostReason(new URL("http://[::ffff:8.8.8.8]/").hostname)).toBeNull();
  });

  it("narrows to cloud metadata and link-local under --allow-private-network", () => {
    expect(alwaysForbiddenReason("169.254.169.254")).toBe("cloud metadata");
    expect(alwaysForbiddenReason("fe80::1")).toBe("link-local");
    for (const ip of ["127.0.0.1", "::1", "10.1.2.3", "192.168.1.1", "100.64.0.1", "8.8.8.8"])
      expect(alwaysForbiddenReason(ip)).toBeNull();
    // whatever the spelling
    for (const ip of ["::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::1", "0xa9fea9fe"])
      expect(alwaysForbiddenReason(ip), ip).toBe("cloud metadata");
    expect(alwaysForbiddenReason("::ffff:169.254.1.1")).toBe("link-local");
    expect(alwaysForbiddenReason("::ffff:0:127.0.0.1")).toBeNull();
  });
});

describe("literal host policy (the mock: no DNS)", () => {
  it.each([
    ["169.254.169.254", "cloud metadata"],
    ["[::1]", "loopback"],
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private (10/8)"],
    ["localhost", "loopback"],
    ["LOCALHOST.", "loopback"],
    ["app.localhost", "loopback"],
    ["metadata.google.internal", "cloud metadata"],
  ])("refuses %s (%s)", (host, kind) => {
    expect(literalHostReason(host)).toBe(kind);
  });

  it("lets public hosts through, and loopback and private ones when private networks are allowed", () => {
    for (const host of ["example.com", "93.184.216.34", "localhost.example.com", "[2606:4700::1111]"])
      expect(literalHostReason(host)).toBeNull();
    for (const host of ["127.0.0.1", "localhost", "192.168.1.1", "[::1]"])
      expect(literalHostReason(host, true)).toBeNull();
    expect(literalHostReason("169.254.169.254", true)).toBe("cloud metadata");
    expect(literalHostReason("metadata.google.internal", true)).toBe("cloud metadata");
  });
});
