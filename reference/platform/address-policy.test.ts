import { describe, expect, it } from "vitest";
import { alwaysForbiddenReason, forbiddenReason, literalHostReason } from "./address-policy.ts";

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

  it("narrows to cloud metadata and link-local under --allow-private-network", () => {
    expect(alwaysForbiddenReason("169.254.169.254")).toBe("cloud metadata");
    expect(alwaysForbiddenReason("fe80::1")).toBe("link-local");
    for (const ip of ["127.0.0.1", "::1", "10.1.2.3", "192.168.1.1", "100.64.0.1", "8.8.8.8"])
      expect(alwaysForbiddenReason(ip)).toBeNull();
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
