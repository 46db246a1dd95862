// `plumbline proxy`: the validating, recording proxy on a port until SIGINT/SIGTERM; then the report files and the
// recording are written and the exit code says whether violations were seen (--fail-on).
import { parseArgs } from "node:util";

export const PROXY_HELP = `Usage: plumbline proxy --upstream URL [--host 127.0.0.1] [--port 4020] [--report-dir DIR]
                       [--record FILE] [--keep-header NAME ...] [--redact-header NAME ...] [--errors]
                       [--fail-on violation|response|never] [--mock OPERATIONS | --forward OPERATIONS]
                       [--fallback-on 501,502,503] [--mock-credits N] [--upstream-timeout MS]
                       [--no-url-rewrite] [--profile primary|alt-bounds]

Forwards every request to the upstream and judges each exchange against spec/openapi.yaml (request and answer
schemas, listed statuses, content types, required headers, batch arithmetic, echoes, deepcrawl task states).
A violation never changes the traffic (unless --errors); it is logged, kept in a report grouped by operation and
rule, served live at GET /__proxy/report (JSON; HTML with Accept: text/html) and written on SIGINT/SIGTERM.

  --upstream URL        where requests go: the live service, a staging deployment, the reference, a mock
  --port N              default 4020 (0: any free port)
  --report-dir DIR      proxy.json, junit.xml and report.html are written here on exit (default reports/proxy)
  --record FILE         record every exchange as HAR 1.2: bodies decoded (binary as base64), secrets redacted;
                        entries stream to FILE.partial, FILE is written whole on exit; POST /__proxy/recording
                        answers the recording so far while recording goes on
  --keep-header NAME    record this credential header as sent (Authorization, Cookie, … are redacted by default)
  --redact-header NAME  redact this header too
  --errors              refuse a request the contract refuses (400/422, the service's own error body) before it
                        reaches the upstream, which spends no credits on it; anonymous calls to protected
                        operations are still forwarded (the service answers those 401/402 first, at no cost)
  --fail-on WHEN        exit 1 on SIGINT/SIGTERM when: violation (any was seen), response (one of the answers,
                        not of the client's requests), never (default: the proxy is also a development tool)
  --mock OPERATIONS     answer these operations from the stateful mock (comma-separated operationIds or their
                        CLI/MCP names: search, deepcrawl, deepcrawl-status, screenshot, …); a mocked operation
                        takes its path family along (deepcrawl: its status polls and zip links)
  --forward OPERATIONS  the complement: forward only these, the mock answers everything else
  --fallback-on LIST    answer from the mock when the upstream answers one of these statuses or does not answer
  --mock-credits N      credits of the account the mock opens for each bearer key it sees (default 1000); the
                        mock's ledger is its own: mocked calls spend no real credits and /usage tells whose
  --upstream-timeout MS ms without a byte from the upstream before the request is answered 502 (default 120000)
  --no-url-rewrite      pass the upstream's absolute URLs (zipUrl, resource_metadata) through unchanged instead
                        of pointing them at the proxy

Exit codes: 0 stopped cleanly (and nothing --fail-on counts was seen), 1 violations --fail-on counts, 2 bad
arguments. Rules and report formats: docs/proxy.md.`;

const FAIL_ON = ["violation", "response", "never"] as const;

function intOption(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} takes a whole number >= ${min}, not "${value}"`);
  return n;
}

const list = (values: string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

export async function proxyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      upstream: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "4020" },
      "report-dir": { type: "string", default: "reports/proxy" },
      record: { type: "string" },
      "keep-header": { type: "string", multiple: true },
      "redact-header": { type: "string", multiple: true },
      errors: { type: "boolean", default: false },
      "fail-on": { type: "string", default: "never" },
      mock: { type: "string", multiple: true },
      forward: { type: "string", multiple: true },
      "fallback-on": { type: "string", multiple: true },
      "mock-credits": { type: "string" },
      "upstream-timeout": { type: "string" },
      "no-url-rewrite": { type: "boolean", default: false },
      profile: { type: "string", default: "primary" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(PROXY_HELP);
    return 0;
  }
  if (!values.upstream) throw new Error("--upstream URL is required (the service the proxy forwards to)");
  if (!/^https?:\/\/[^\s/]+/.test(values.upstream)) throw new Error("--upstream takes an http(s) URL");
  const failOn = values["fail-on"] as (typeof FAIL_ON)[number];
  if (!FAIL_ON.includes(failOn)) throw new Error(`--fail-on takes ${FAIL_ON.join(", ")}`);
  if (values.mock && values.forward) throw new Error("--mock and --forward exclude each other");
  const fallbackOn = list(values["fallback-on"]).map((s) => intOption("fallback-on", s, 100) as number);

  // loaded once the arguments are good: bad ones answer without loading the contract
  const { startProxy } = await import("./start-proxy.ts");
  const { RULE_BY_ID } = await import("./judge/rules.ts");
  const proxy = await startProxy({
    upstream: values.upstream,
    host: values.host,
    port: intOption("port", values.port),
    reportDir: values["report-dir"],
    record: values.record,
    keepHeaders: values["keep-header"],
    redactHeaders: values["redact-header"],
    errors: values.errors,
    mock: values.mock ? list(values.mock) : undefined,
    forward: values.forward ? list(values.forward) : undefined,
    fallbackOn,
    mockCredits: intOption("mock-credits", values["mock-credits"]),
    upstreamTimeoutMs: intOption("upstream-timeout", values["upstream-timeout"], 1),
    rewriteUrls: !values["no-url-rewrite"],
    profile: values.profile,
    onViolation: (v) => {
      const e = v.exchange;
      const got = e.response ? String(e.response.status) : "no answer";
      console.error(
        `violation ${v.rule} [${v.operationId ?? "-"}] #${v.exchangeId} ${e.method} ${e.path} → ${got}: ${v.message}`,
      );
    },
    onWarning: (m) => console.error(`warning: ${m}`),
  });
  console.log(`plumbline proxy listening on ${proxy.url}`);
  console.log(`  upstream ${proxy.upstream}${proxy.mockUrl ? `, mock ${proxy.mockUrl}` : ""}`);
  console.log(`  report ${proxy.url}/__proxy/report${values.record ? `, recording to ${values.record}` : ""}`);

  const result = await new Promise<Awaited<ReturnType<typeof proxy.close>>>((resolve, reject) => {
    const stop = (signal: string) => {
      console.log(`${signal}: closing (requests in flight finish, then the report and recording are written)`);
      proxy.close().then(resolve, reject);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
  const t = result.report.totals;
  const responseViolations = result.report.rules
    .filter((r) => RULE_BY_ID.get(r.id)?.side === "response")
    .reduce((s, r) => s + r.count, 0);
  console.log(
    `${t.exchanges} exchanges, ${t.violations} violations (${responseViolations} of answers, ${t.violations - responseViolations} of requests)`,
  );
  for (const r of result.report.rules.filter((x) => x.count > 0)) console.log(`  ${r.id}: ${r.count}`);
  if (result.files) console.log(`report: ${result.files.html} (${result.files.json}, ${result.files.junit})`);
  if (result.recording) console.log(`recording: ${result.recording}`);
  if (failOn === "violation" && t.violations > 0) return 1;
  if (failOn === "response" && responseViolations > 0) return 1;
  return 0;
}
