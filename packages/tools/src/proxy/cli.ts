// `plumbline proxy`: the validating, recording proxy on a port until SIGINT/SIGTERM; then the report files and the
// recording are written and the exit code says whether violations were seen (--fail-on). Declarations first: the
// contract and the proxy load once the arguments are good.
import {
  Command,
  commaList,
  exits,
  httpUrl,
  InvalidArgumentError,
  Option,
  wholeNumber,
} from "@plumbline-kit/cli/command-kit";
import {
  WRAPPED_ARGUMENT,
  WRAPPED_USAGE,
  wrappedArgumentHelp,
  wrappedCommand,
} from "@plumbline-kit/cli/wrapped-command";
import { PROFILE_NAMES } from "@plumbline-kit/contract/profiles";
import { plural } from "@plumbline-kit/contract/report/plural";
import { contractOption, reporterOption } from "../target-options.ts";

/** A repeatable, comma-separated list: `--mock search --mock deepcrawl,screenshot`. */
const lists = (value: string, previous: string[] | undefined) => [...(previous ?? []), ...commaList(value)];

function statuses(value: string, previous: number[] | undefined): number[] {
  const parsed = commaList(value).map(Number);
  if (parsed.length === 0 || !parsed.every((n) => Number.isInteger(n) && n >= 100 && n <= 599))
    throw new InvalidArgumentError("Expected HTTP statuses 100..599, comma-separated.");
  return [...(previous ?? []), ...parsed];
}

function proxyOptions(cmd: Command) {
  return cmd
    .description(
      "Forwards every request to the upstream and judges each exchange against spec/openapi.yaml (request and answer schemas, listed statuses, content types, required headers, batch arithmetic, echoes, deepcrawl task states). A violation never changes the traffic (unless --errors); it is logged, kept in a report grouped by operation and rule, served live at GET /__proxy/report (JSON; HTML with Accept: text/html) and written on SIGINT/SIGTERM (docs/proxy.md).",
    )
    .argument(WRAPPED_ARGUMENT, wrappedArgumentHelp("proxy"))
    .usage(WRAPPED_USAGE)
    .addOption(
      new Option("--upstream <url>", "where requests go: the live service, a staging deployment, the reference, a mock")
        .argParser(httpUrl)
        .makeOptionMandatory(),
    )
    .option("--host <address>", "the address to listen on", "127.0.0.1")
    .option("--port <port>", "the port to listen on (0: any free port)", wholeNumber(0, 65535), 4020)
    .option("--report-dir <dir>", "proxy.json, junit.xml and report.html are written here on exit", "reports/proxy")
    .option(
      "--record <file>",
      "record every exchange as HAR 1.2: bodies decoded (binary as base64), secrets redacted; entries stream to FILE.partial, FILE is written whole on exit; POST /__proxy/recording answers the recording so far while recording goes on",
    )
    .option(
      "--keep-header <name>",
      "record this credential header as sent (Authorization, Cookie, … are redacted by default; repeatable)",
      lists,
    )
    .option("--redact-header <name>", "redact this header too (repeatable)", lists)
    .option(
      "--errors",
      "refuse a request the contract refuses (400/422, the service's own error body) before it reaches the upstream, which spends no credits on it; anonymous calls to protected operations are still forwarded (the service answers those 401/402 first, at no cost)",
    )
    .addOption(
      new Option(
        "--fail-on <when>",
        "exit 1 when the proxy closes (on SIGINT/SIGTERM, or when the command after -- ends) if: violation (any was seen), response (one of the answers, not of the client's requests), never (the proxy is also a development tool)",
      )
        .choices(["violation", "response", "never"] as const)
        .default("never" as const),
    )
    .addOption(reporterOption("operation and rule that saw violations, when the proxy closes"))
    .addOption(
      new Option(
        "--mock <operations>",
        "answer these operations from the stateful mock (comma-separated operationIds or their CLI/MCP names: search, deepcrawl, deepcrawl-status, screenshot, …; repeatable); a mocked operation takes its path family along (deepcrawl: its status polls and zip links)",
      ).argParser(lists),
    )
    .addOption(
      new Option("--forward <operations>", "the complement: forward only these, the mock answers everything else")
        .argParser(lists)
        .conflicts("mock"),
    )
    .option(
      "--fallback-on <statuses>",
      "answer from the mock when the upstream answers one of these statuses (e.g. 501,502,503) or does not answer",
      statuses,
    )
    .option(
      "--mock-credits <n>",
      "credits of the account the mock opens for each bearer key it sees (default 1000); the mock's ledger is its own: mocked calls spend no real credits and /usage tells whose",
      wholeNumber(0),
    )
    .option(
      "--upstream-timeout <ms>",
      "ms without a byte from the upstream before the request is answered 502 (default 120000)",
      wholeNumber(1),
    )
    .option(
      "--no-url-rewrite",
      "pass the upstream's absolute URLs (zipUrl, resource_metadata) through unchanged instead of pointing them at the proxy",
    )
    .addOption(
      new Option(
        "--log [format]",
        "log every exchange: pretty (the default on a terminal; --log alone too): one line per exchange with its method, path, status, time, credits by the price table and the contract's verdict; json: the same as JSON lines; off (the default elsewhere). Violations are printed on stderr in every case; secrets in query strings are written as [REDACTED]",
      )
        .choices(["pretty", "json", "off"] as const)
        .preset("pretty" as const),
    )
    .addOption(
      new Option(
        "--profile <name>",
        "the bound set exchanges are judged with: primary (the document's) or alt-bounds (D-bound-sets)",
      )
        .choices(PROFILE_NAMES)
        .default("primary" as const),
    )
    .addOption(contractOption("exchanges are judged by (and the --mock operations answered from)"))
    .addHelpText(
      "after",
      "\nExit codes: 0 stopped cleanly (and nothing --fail-on counts was seen), 1 violations --fail-on counts, 2 bad\narguments. Rules and report formats: docs/proxy.md.\n\nWith -- CMD …: runs CMD once the proxy listens (its address in PLUMBLINE_URL), then closes the proxy, writes\nthe report and the recording, and exits with CMD's status, or when CMD passed with the proxy's --fail-on\nverdict. SIGINT, SIGTERM and SIGHUP are passed to CMD; nothing it started is left running (docs/proxy.md).",
    );
}

export function proxyCommand() {
  return proxyOptions(new Command("proxy")).action(
    exits((operands, opts, cmd) => runProxy(opts, wrappedCommand(cmd, operands))),
  );
}

type ProxyCommandOptions = ReturnType<ReturnType<typeof proxyOptions>["opts"]>;

async function runProxy(values: ProxyCommandOptions, command: string[] | undefined): Promise<number> {
  const failOn = values.failOn;
  // loaded once the arguments are good: bad ones answer without loading the contract
  const { startProxy } = await import("./start-proxy.ts");
  const { RULE_BY_ID } = await import("./judge/rules.ts");
  const { exchangeLine, exchangeRecord } = await import("./report/request-line.ts");
  const { loadContract } = await import("@plumbline-kit/contract");
  const tty = process.stdout.isTTY === true;
  // --log alone: pretty; no --log: pretty on a terminal, none elsewhere
  const log = values.log ?? (tty ? "pretty" : "off");
  const color = tty && !process.env.NO_COLOR;
  const contract = await loadContract({ profile: values.profile, version: values.contract });
  const proxy = await startProxy({
    upstream: values.upstream,
    host: values.host,
    port: values.port,
    reportDir: values.reportDir,
    record: values.record,
    keepHeaders: values.keepHeader,
    redactHeaders: values.redactHeader,
    errors: values.errors ?? false,
    mock: values.mock,
    forward: values.forward,
    fallbackOn: values.fallbackOn ?? [],
    mockCredits: values.mockCredits,
    upstreamTimeoutMs: values.upstreamTimeout,
    rewriteUrls: values.urlRewrite,
    profile: values.profile,
    onViolation: (v) => {
      const e = v.exchange;
      const got = e.response ? String(e.response.status) : "no answer";
      console.error(
        `violation ${v.rule} [${v.operationId ?? "-"}] #${v.exchangeId} ${e.method} ${e.path} → ${got}: ${v.message}`,
      );
    },
    onWarning: (m) => console.error(`warning: ${m}`),
    contract,
    onExchange:
      log === "off"
        ? undefined
        : (ex, violations) => {
            const record = exchangeRecord(contract, ex, violations);
            console.log(log === "json" ? JSON.stringify(record) : exchangeLine(record, color));
          },
  });
  console.log(`plumbline proxy listening on ${proxy.url}`);
  console.log(`  upstream ${proxy.upstream}${proxy.mockUrl ? `, mock ${proxy.mockUrl}` : ""}`);
  console.log(`  report ${proxy.url}/__proxy/report${values.record ? `, recording to ${values.record}` : ""}`);

  let commandCode: number | undefined;
  if (command) {
    const { runWrapped, serverEnv } = await import("@plumbline-kit/cli/wrapped-command");
    commandCode = await runWrapped(command, serverEnv({ url: proxy.url }), "proxy");
    console.log(`${command[0]} exited ${commandCode}: closing (the report and recording are written)`);
  }
  const result = command
    ? await proxy.close()
    : await new Promise<Awaited<ReturnType<typeof proxy.close>>>((resolve, reject) => {
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
    `${plural(t.exchanges, "exchange")}, ${plural(t.violations, "violation")} (${responseViolations} of answers, ${t.violations - responseViolations} of requests)`,
  );
  for (const r of result.report.rules.filter((x) => x.count > 0)) console.log(`  ${r.id}: ${r.count}`);
  if (result.files) console.log(`report: ${result.files.html} (${result.files.json}, ${result.files.junit})`);
  if (result.recording) console.log(`recording: ${result.recording}`);
  const { chosenReporter, githubAnnotation } = await import("@plumbline-kit/contract/report/github");
  if (chosenReporter(values.reporter, process.env) === "github") {
    const { proxyAnnotations } = await import("./report/github-annotations.ts");
    for (const a of proxyAnnotations(result.report, failOn)) console.log(githubAnnotation(a));
  }
  if (commandCode !== undefined && commandCode !== 0) return commandCode;
  if (failOn === "violation" && t.violations > 0) return 1;
  if (failOn === "response" && responseViolations > 0) return 1;
  return 0;
}
