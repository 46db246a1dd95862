// The curl renderer's commands, run by a real shell with `curl` replaced by a function printing its arguments: the
// arguments must be exactly the request sent (with the key from the environment), and no key may be in the text.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlCommand, shellWord } from "./curl.ts";

const KEY = "plb_live_S3cr3t'$(touch /tmp/pwned)";

/** The argv bash gives curl for `command`, with $PLUMBLINE_API_KEY set to KEY. */
function argv(command: string): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`;
  const r = spawnSync("bash", ["-c", script], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, PLUMBLINE_API_KEY: KEY, PLUMBLINE_BROKE_API_KEY: "broke-key" },
  });
  expect(r.status).toBe(0);
  return r.stdout.split("\0").slice(0, -1);
}

describe("curlCommand", () => {
  it("sends a JSON body with quotes, dollars and backticks byte for byte, and the key from the environment", () => {
    const body = JSON.stringify({ query: `it's "quoted" $HOME \`id\` \\ !x`, n: 1 });
    const cmd = curlCommand({
      method: "POST",
      url: "http://127.0.0.1:4010/search",
      headers: { authorization: "Bearer $PLUMBLINE_API_KEY", "content-type": "application/json" },
      body,
    });
    expect(cmd).toContain(`-H "authorization: Bearer $PLUMBLINE_API_KEY"`);
    expect(argv(cmd)).toEqual([
      "-sS",
      "-i",
      "-X",
      "POST",
      "http://127.0.0.1:4010/search",
      "-H",
      `authorization: Bearer ${KEY}`,
      "-H",
      "content-type: application/json",
      "--data-raw",
      body,
    ]);
  });

  it("replaces a secret named by the caller wherever it appears (URL-encoded too) by its variable", () => {
    const cmd = curlCommand({
      method: "GET",
      url: `http://t/usage?api_key=${encodeURIComponent(KEY)}`,
      headers: { "x-api-key": KEY },
      body: `{"api_key":"${KEY}"}`,
      secrets: [[KEY, "PLUMBLINE_API_KEY"]],
    });
    expect(cmd).not.toContain("S3cr3t");
    const args = argv(cmd);
    expect(args[4]).toBe(`http://t/usage?api_key=${KEY}`);
    expect(args[6]).toBe(`x-api-key: ${KEY}`);
    expect(args[8]).toBe(`{"api_key":"${KEY}"}`);
  });

  it("turns a redacted bearer credential into the variable and keeps only the scheme of another", () => {
    const bearer = curlCommand({
      method: "GET",
      url: "http://t/usage",
      headers: [["Authorization", "Bearer [REDACTED]"]],
    });
    expect(argv(bearer)).toContain(`authorization: Bearer ${KEY}`);
    const payment = curlCommand({
      method: "GET",
      url: "http://t/usage",
      headers: [["authorization", "Payment [REDACTED]"]],
    });
    expect(argv(payment)).toContain("authorization: Payment [REDACTED]");
  });

  it("points a binary body at a file and leaves out the headers curl writes itself", () => {
    const cmd = curlCommand({
      method: "POST",
      url: "http://t/x",
      headers: { host: "t", "content-length": "3", "content-type": "application/zip" },
      body: { binary: true, note: "base64 in the report" },
    });
    expect(cmd).toBe(
      `curl -sS -i -X POST 'http://t/x' -H 'content-type: application/zip' --data-binary @body.bin  # base64 in the report`,
    );
  });

  it("never lets a recorded byte reach the shell: a variable beside shell syntax is spliced, not double-quoted", () => {
    const word = shellWord('x: $PLUMBLINE_API_KEY $(id) `id` "q"');
    expect(word).not.toMatch(/^"/);
    expect(argv(`curl ${word}`)).toEqual([`x: ${KEY} $(id) \`id\` "q"`]);
    expect(argv(`curl ${shellWord("$HOME $PATH")}`)).toEqual(["$HOME $PATH"]);
  });
});
