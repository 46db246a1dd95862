// Load is only sent to this machine unless --allow-remote says otherwise; a run that cannot proceed exits 2
// before sending anything.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN } from "../../../../../test-support/mock-process.ts";
import { runLoad } from "../run-load.ts";
import { checkTarget, isLoopbackHost } from "../target-guard.ts";

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.1.2.3", "localhost", "api.localhost", "[::1]", "::1", "::ffff:127.0.0.1"])(
    "%s is loopback",
    (h) => expect(isLoopbackHost(h)).toBe(true),
  );
  it.each([
    "10.0.0.1",
    "192.0.2.10",
    "example.com",
    "localhost.example.com",
    "[2001:db8::1]",
    "0.0.0.0",
    "127.example",
  ])("%s is not", (h) => expect(isLoopbackHost(h)).toBe(false));
});

describe("refusal of remote targets", () => {
  it("checkTarget names the host and the flag", () => {
    const r = checkTarget("https://api.example.com/v1", false);
    expect(r).toEqual({
      ok: false,
      error: "refusing to load api.example.com: not a loopback address (pass --allow-remote to load a remote target)",
    });
    expect(checkTarget("https://api.example.com/v1", true).ok).toBe(true);
    expect(checkTarget("ftp://127.0.0.1", true)).toMatchObject({ ok: false, error: /http\(s\)/ });
    expect(checkTarget("not a url", false)).toMatchObject({ ok: false, error: /is not a URL/ });
  });

  it("runLoad returns exit code 2 without sending anything", async () => {
    const r = await runLoad({ target: "http://192.0.2.10:4010", apiKey: "k", durationSeconds: 1, reportDir: null });
    expect(r).toMatchObject({
      ok: false,
      exitCode: 2,
      error: expect.stringMatching(/refusing to load 192\.0\.2\.10:4010/),
    });
  });

  it.each([
    [{ durationSeconds: 0 }, /--duration takes 1\.\.600/],
    [{ durationSeconds: 601 }, /--duration takes 1\.\.600/],
    [{ connections: 0 }, /--connections takes 1\.\.1000/],
    [{ rate: -5 }, /--rate takes/],
    [{ apiKey: "" }, /--api-key is required/],
    [{ scenario: "nope" }, /no scenario "nope"; known: .*mixed/],
    [{ thresholds: "/nonexistent.json" }, /thresholds \/nonexistent\.json/],
    [{ thresholds: "nope" }, /no thresholds "nope" in load\/thresholds\/ \(known: gate, mock, reference\)/],
    [{ fixtureUrl: "127.0.0.1:4020" }, /--fixture-url "127.0.0.1:4020" is not a URL/],
    [{ fixtureUrl: "file:///srv/site" }, /--fixture-url must be http\(s\), not file:/],
    [{ fixtureUrl: "http://127.0.0.1:4020/?a=1" }, /--fixture-url takes a base URL without query/],
    [{ scenario: "reference" }, /scenario reference: \{\{fixture\}\} is not set: .*--fixture-url URL/],
    [{ baseline: "/nonexistent.json" }, /--baseline \/nonexistent\.json/],
  ])("runLoad(%j) cannot run: exit 2", async (options, message) => {
    const r = await runLoad({ target: "http://127.0.0.1:9", apiKey: "k", reportDir: null, ...options });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it("an unreachable loopback target is exit 2 too", async () => {
    const r = await runLoad({ target: "http://127.0.0.1:9", apiKey: "k", durationSeconds: 1, reportDir: null });
    expect(r).toMatchObject({
      exitCode: 2,
      error: "nothing answers at http://127.0.0.1:9 (connection refused): is the server running?",
    });
  });

  it("the CLI exits 2 and says why", () => {
    const r = spawnSync(process.execPath, [BIN, "load", "--target", "http://203.0.113.7", "--api-key", "k"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/plumbline load: refusing to load 203\.0\.113\.7: not a loopback address/);
  });
});
