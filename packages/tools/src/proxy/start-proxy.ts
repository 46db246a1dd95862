// startProxy(): the validating, recording proxy as a typed, in-process API (`plumbline proxy` is a thin CLI over it).
// It forwards every request to the upstream, judges each exchange against the contract, keeps a report of the
// violations, records HAR when asked, and in hybrid mode answers some operations from the stateful mock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Contract, clientErrorCode, loadContract, serializeError } from "@plumbline-kit/contract";
import type { Exchange, ExchangeSink } from "./exchange.ts";
import { createTarget, type Target } from "./forwarder.ts";
import type { PlumblineHar } from "./har/har-entry.ts";
import { createHarRecorder, type HarRecorder } from "./har/har-recorder.ts";
import type { HybridMock } from "./hybrid-mock.ts";
import type { Violation } from "./judge/exchange-judge.ts";
import { checkRequest } from "./judge/request-check.ts";
import { createOperationMatcher } from "./operation-match.ts";
import { familyOf, mockedFamilies, resolveOperationNames } from "./operation-names.ts";
import { createProxyHandler, type Fallback } from "./proxy-handler.ts";
import { createRedactor } from "./redaction.ts";
import { type ReportFiles, reportHtml, writeReportFiles } from "./report/report-files.ts";
import { createViolationReport, type ProxyReport, type ReportedViolation } from "./report/violation-report.ts";

export const DEFAULT_PROXY_PORT = 4020;
export const DEFAULT_REPORT_DIR = "reports/proxy";
const CLOSE_GRACE_MS = 10_000;
/** the mock's and the reference's (reference/platform/framework-errors.ts, D-framework-errors) */
const REQUEST_TIMEOUT_MS = 30_000;
const CHECK_INTERVAL_MS = 5_000;

export interface ProxyOptions {
  /** base URL every request is forwarded to (the live service, a staging deployment, the reference, a mock) */
  upstream: string;
  host?: string;
  /** default 4020; 0 picks a free port */
  port?: number;
  /** where proxy.json, junit.xml and report.html are written on close; null writes none */
  reportDir?: string | null;
  /** HAR file to record every exchange to */
  record?: string;
  /** headers recorded as sent although they are credentials (`--keep-header`) */
  keepHeaders?: string[];
  /** more header names to redact */
  redactHeaders?: string[];
  /** refuse an invalid request with the contract's own answer (400/422) before it reaches the upstream */
  errors?: boolean;
  /** operations answered by the embedded mock (operationIds or their kebab/snake spellings) */
  mock?: string[];
  /** the complement: only these are forwarded, the mock answers the rest */
  forward?: string[];
  /** upstream statuses answered by the mock instead; an upstream that does not answer falls back too */
  fallbackOn?: number[];
  /** credits of each account the embedded mock opens for a bearer key it has not seen (default 1000) */
  mockCredits?: number;
  /** ms without a byte from the upstream before the request is answered 502 (default 120000) */
  upstreamTimeoutMs?: number;
  /**
   * how long a request may take to arrive, headers and body (default 30 s, as the mock and the reference): past it
   * the client is answered 400 PLB_REQUEST_TIMEOUT and the connection closed; checked every `checkIntervalMs`
   * (default 5 s)
   */
  requestTimeouts?: { requestTimeoutMs?: number; checkIntervalMs?: number };
  /** largest request body accepted, bytes (default 8 MiB; the service takes 1 MiB) */
  maxRequestBytes?: number;
  /** most bytes of an answer kept for judging and recording (default 64 MiB; the client always gets it whole) */
  maxCaptureBytes?: number;
  /** rewrite the upstream's own absolute URLs in answers (zipUrl, resource_metadata) to the proxy's (default true) */
  rewriteUrls?: boolean;
  /** at most this many connections to each upstream (default 256) */
  maxSockets?: number;
  /** each violation as it is seen (the CLI logs them) */
  onViolation?: (v: ReportedViolation) => void;
  /** a recording or report problem worth telling (a write that failed) */
  onWarning?: (message: string) => void;
  /** every exchange once judged, with its violations (the CLI's request log: proxy/report/request-line.ts) */
  onExchange?: (exchange: Exchange, violations: Violation[]) => void;
  contract?: Contract;
  /** without `contract`: the version of the contract to load, `seed` (default) or `live` (D-live-version) */
  contractVersion?: string;
  profile?: string;
}

export interface RunningProxy {
  url: string;
  port: number;
  upstream: string;
  /** the embedded mock's URL in hybrid mode */
  mockUrl?: string;
  /** the report so far (what GET /__proxy/report answers) */
  report(): ProxyReport;
  /** violations seen so far */
  readonly violations: number;
  /** the recording so far (what POST /__proxy/recording answers); null when not recording */
  recording(): Promise<PlumblineHar> | null;
  /** stops accepting, lets requests in flight end, writes the report files and the recording */
  close(): Promise<{ report: ProxyReport; files: ReportFiles | null; recording: string | null }>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const contract =
    options.contract ?? (await loadContract({ profile: options.profile, version: options.contractVersion }));
  const upstreamUrl = new URL(options.upstream).href;
  const maxSockets = options.maxSockets ?? 256;
  const upstream = createTarget("upstream", upstreamUrl, maxSockets);
  const matcher = createOperationMatcher(contract);
  const redactor = createRedactor({ keepHeaders: options.keepHeaders, secretHeaders: options.redactHeaders });
  const view = { redactor, upstream: upstreamUrl, maxDecodedBytes: 64 * 1024 * 1024 };

  if (options.mock?.length && options.forward?.length) throw new Error("--mock and --forward exclude each other");
  const mockNames = options.mock?.length ? resolveOperationNames(contract, options.mock, "--mock") : null;
  const forwardNames = options.forward?.length ? resolveOperationNames(contract, options.forward, "--forward") : null;
  for (const r of [mockNames, forwardNames]) if (r && !r.ok) throw new Error(r.error);
  const fallbackOn = options.fallbackOn ?? [];
  for (const s of fallbackOn)
    if (!Number.isInteger(s) || s < 100 || s > 599) throw new Error(`--fallback-on: ${s} is not an HTTP status`);

  let hybrid: HybridMock | null = null;
  if (mockNames || forwardNames || fallbackOn.length) {
    // loaded only now: a plain proxy never loads the mock (hybrid-mock.ts says why)
    const { startHybridMock } = await import("./hybrid-mock.ts");
    hybrid = await startHybridMock({ contract, credits: options.mockCredits ?? 1000, maxSockets });
  }
  const route = routing(contract, upstream, hybrid?.target ?? null, mockNames, forwardNames);

  const settings = {
    errors: options.errors ?? false,
    mock: mockNames?.ok ? mockNames.operationIds : [],
    forward: forwardNames?.ok ? forwardNames.operationIds : [],
    fallbackOn,
    record: options.record ?? null,
    rewriteUrls: options.rewriteUrls ?? true,
  };
  const report = createViolationReport({
    ...view,
    contract,
    matcher,
    settings,
    onViolation: options.onViolation,
    onJudged: options.onExchange,
  });
  let recorder: HarRecorder | null = null;
  if (options.record) recorder = await createHarRecorder({ ...view, file: options.record, onError: options.onWarning });
  const sinks: ExchangeSink[] = [report, ...(recorder ? [recorder] : [])];

  const fallback: Fallback | undefined =
    hybrid && fallbackOn.length ? { target: hybrid.target, statuses: new Set(fallbackOn) } : undefined;

  // connections cut off for taking too long to send their request: the exchange is recorded as that refusal
  const timedOut = new WeakSet<object>();
  const handle = createProxyHandler({
    matcher,
    upstream,
    route: route ? (ex) => route(ex.request.path) : undefined,
    beforeSend: hybrid ? (target, ex) => target.name === "mock" && hybrid?.beforeSend(ex) : undefined,
    fallback,
    refuse: options.errors ? refusal(contract, matcher) : undefined,
    sinks,
    settings: {
      timeoutMs: options.upstreamTimeoutMs ?? 120_000,
      maxCaptureBytes: options.maxCaptureBytes ?? 64 * 1024 * 1024,
      rewriteUrls: settings.rewriteUrls,
    },
    maxRequestBytes: options.maxRequestBytes ?? 8 * 1024 * 1024,
    timedOut: (req) => timedOut.has(req.socket),
    linkHeader: linkHeaderOf(contract),
    admin: (req, res) => admin(req, res),
  });

  function admin(req: IncomingMessage, res: ServerResponse): boolean {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/__proxy/report" && req.method === "GET") {
      const r = report.snapshot();
      if (/\btext\/html\b/.test(req.headers.accept ?? "")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        res.end(reportHtml(r));
      } else {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(r, null, 2));
      }
      return true;
    }
    if (path === "/__proxy/recording" && req.method === "POST") {
      req.resume();
      if (!recorder) {
        const e = serializeError("PLB_ROUTE_NOT_FOUND", {
          message: "Not recording: start the proxy with --record FILE",
        });
        res.writeHead(e.status, { "content-type": e.contentType });
        res.end(JSON.stringify(e.body));
        return true;
      }
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      recorder.snapshotTo(res).then(
        () => res.end(),
        (err: Error) => {
          options.onWarning?.(`recording snapshot failed: ${err.message}`);
          res.destroy(err);
        },
      );
      return true;
    }
    return false;
  }

  // a client that sends its headers or body a byte at a time is cut off like the service's (D-framework-errors):
  // Node's request timeout covers the whole request, headers and body, until it has arrived (not the answer)
  const requestTimeout = options.requestTimeouts?.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server: Server = createServer(
    {
      keepAliveTimeout: 65_000,
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: options.requestTimeouts?.checkIntervalMs ?? CHECK_INTERVAL_MS,
    },
    (req, res) => {
      void handle(req, res);
    },
  );
  // what Node would answer with a bare 400/408 (a bad request line, oversized headers, a request that did not
  // arrive in time) gets the contract's shape
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    const code = clientErrorCode(err);
    if (code === "PLB_REQUEST_TIMEOUT") timedOut.add(socket);
    if (!socket.writable) return socket.destroy();
    const e = serializeError(code);
    const body = JSON.stringify(e.body);
    socket.end(
      `HTTP/1.1 ${e.status} Bad Request\r\ncontent-type: ${e.contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  const host = options.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? DEFAULT_PROXY_PORT, host, () => resolve());
    });
  } catch (err) {
    // a port in use: nothing started stays behind (the mock, the recording's partial file)
    await hybrid?.close();
    await recorder?.discard();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;

  let closing: ReturnType<RunningProxy["close"]> | null = null;
  async function close() {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // an answer still streaming after the grace period (an event stream) is cut
      setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
    });
    upstream.agent.destroy();
    hybrid?.target.agent.destroy();
    await hybrid?.close();
    const r = report.snapshot();
    const reportDir = options.reportDir === undefined ? DEFAULT_REPORT_DIR : options.reportDir;
    const files = reportDir ? writeReportFiles(reportDir, r) : null;
    if (recorder) await recorder.close();
    return { report: r, files, recording: recorder?.file ?? null };
  }

  return {
    url: `http://${shownHost}:${port}`,
    port,
    upstream: upstreamUrl,
    mockUrl: hybrid?.url,
    report: () => report.snapshot(),
    get violations() {
      return report.violations;
    },
    recording: () => recorder?.snapshot() ?? null,
    close() {
      closing ??= close();
      return closing;
    },
  };
}

function routing(
  contract: Contract,
  upstream: Target,
  mock: Target | null,
  mockNames: ReturnType<typeof resolveOperationNames> | null,
  forwardNames: ReturnType<typeof resolveOperationNames> | null,
): ((path: string) => Target) | null {
  if (!mock) return null;
  if (mockNames?.ok) {
    const families = mockedFamilies(contract, mockNames.operationIds);
    return (path) => (families.has(familyOf(path)) ? mock : upstream);
  }
  if (forwardNames?.ok) {
    const families = mockedFamilies(contract, forwardNames.operationIds);
    return (path) => (families.has(familyOf(path)) ? upstream : mock);
  }
  return null;
}

/** `--errors`: a request the service would refuse is refused here with the service's answer (D-validation-status). */
function refusal(contract: Contract, matcher: ReturnType<typeof createOperationMatcher>) {
  return (ex: Parameters<NonNullable<Parameters<typeof createProxyHandler>[0]["refuse"]>>[0]) => {
    const match = matcher(ex.request.method, ex.request.path);
    if (!match) return null;
    // an anonymous call to a paid operation is answered 402 before its body is validated (D-payment-challenge),
    // and an anonymous call to any protected one 401 (D-auth): the upstream gives those answers, at no cost
    const anonymous = !ex.request.headers.some(([k]) => k.toLowerCase() === "authorization");
    if (anonymous && match.op.auth === "required") return null;
    return checkRequest(contract, match, ex)?.refusal ?? null;
  };
}

/** The Link header every answer of the service carries (D-headers), as the document gives it. */
function linkHeaderOf(contract: Contract): string {
  const link = (contract.raw.components as { headers?: Record<string, { example?: unknown }> } | undefined)?.headers
    ?.Link;
  return typeof link?.example === "string" ? link.example : '</openapi.json>; rel="service-desc"';
}
