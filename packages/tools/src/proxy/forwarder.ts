// Sending one request to a target (the upstream, or the hybrid mode's mock) and streaming its answer to the client
// while keeping a bounded copy for the judge and the recorder. node:http with a keep-alive agent: it hands over the
// raw header list (order, repeats, casing) the recording keeps, and costs well under a millisecond on loopback
// (`plumbline bench proxy`).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Exchange, HeaderList } from "./exchange.ts";
import { endToEnd, type ForwardedFrom, flat, headerValue, pairsOf, upstreamRequestHeaders } from "./hop-headers.ts";

export interface Target {
  name: "upstream" | "mock";
  base: URL;
  agent: HttpAgent;
}

export function createTarget(name: Target["name"], baseUrl: string, maxSockets: number): Target {
  const base = new URL(baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:") throw new Error(`not an http(s) URL: ${baseUrl}`);
  const options = { keepAlive: true, maxSockets, maxFreeSockets: Math.min(maxSockets, 64) };
  return { name, base, agent: base.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options) };
}

export interface ForwardSettings {
  /** ms without a byte from the target before the exchange is given up (socket idle timeout) */
  timeoutMs: number;
  /** most bytes of an answer kept for judging and recording (the client gets it whole regardless) */
  maxCaptureBytes: number;
  /** rewrite the target's own absolute URLs in answers to the proxy's origin */
  rewriteUrls: boolean;
}

export type SendOutcome =
  | { kind: "answered" }
  /** nothing was sent to the client yet: the caller may answer otherwise (fallback, or its own 502) */
  | { kind: "failed"; reason: string }
  | { kind: "status"; status: number };

export interface SendInput {
  target: Target;
  exchange: Exchange;
  res: ServerResponse;
  from: ForwardedFrom;
  /** statuses that are handed back (drained, not sent to the client) for the caller to answer otherwise */
  handBack?: ReadonlySet<number>;
  settings: ForwardSettings;
}

const errorText = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}${e.message && !e.message.includes(e.code) ? ` (${e.message})` : ""}` : String(e.message);
};

/** The URL of the path on the target: its base path (if any) joined with the request's path and query. */
function targetPath(base: URL, path: string): string {
  const prefix = base.pathname.replace(/\/+$/, "");
  return `${prefix}${path.startsWith("/") ? path : `/${path}`}`;
}

/** The proxy's origin as the client addressed it (what rewritten URLs point at). */
const proxyOrigin = (from: ForwardedFrom) => (from.host ? `http://${from.host}` : null);

function rewriteHeaderUrls(headers: HeaderList, target: Target, origin: string | null): HeaderList {
  if (!origin) return headers;
  const own = target.base.origin;
  return headers.map(([k, v]) => {
    const lower = k.toLowerCase();
    if (lower !== "location" && lower !== "content-location" && lower !== "link" && lower !== "www-authenticate")
      return [k, v];
    return [k, v.split(own).join(origin)];
  });
}

export function send(input: SendInput): Promise<SendOutcome> {
  const { target, exchange, res, from, settings } = input;
  const req = exchange.request;
  const headers = upstreamRequestHeaders(req.headers, target.base, from);
  const hadBody = req.body.length > 0 || headerValue(req.headers, "content-length") !== undefined;
  if (hadBody) headers.push(["content-length", String(req.body.length)]);
  const started = performance.now();
  let sentAt = started;
  const doRequest = target.base.protocol === "https:" ? httpsRequest : httpRequest;

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      res.off("close", onClientClose);
      resolve(outcome);
    };
    const up = doRequest({
      protocol: target.base.protocol,
      hostname: target.base.hostname,
      port: target.base.port || undefined,
      method: req.method,
      path: targetPath(target.base, req.path),
      headers: flat(headers),
      setHost: false,
      agent: target.agent,
    });
    up.setTimeout(settings.timeoutMs, () =>
      up.destroy(Object.assign(new Error("no answer in time"), { code: "ETIMEDOUT" })),
    );
    // the client gave up: so does the proxy (the target sees the hang-up and can cancel the work, D-batch-execution)
    const onClientClose = () => {
      if (res.writableFinished) return;
      exchange.error ??= "the client closed the connection before the answer ended";
      // half an answer is neither judged nor recorded
      exchange.response = undefined;
      up.destroy();
      finish({ kind: "answered" });
    };
    res.on("close", onClientClose);

    up.on("error", (err) => {
      if (settled) return;
      if (res.headersSent) {
        // the answer was under way: the client gets a cut-off answer, as it would from the target itself
        exchange.error = `the ${target.name} broke off its answer: ${errorText(err)}`;
        exchange.response = undefined;
        res.destroy();
        finish({ kind: "answered" });
        return;
      }
      finish({ kind: "failed", reason: `the ${target.name} did not answer: ${errorText(err)}` });
    });
    up.on("finish", () => {
      sentAt = performance.now();
    });
    up.on("response", (upRes: IncomingMessage) => {
      const firstByteAt = performance.now();
      exchange.timings.send = sentAt - started;
      exchange.timings.wait = firstByteAt - sentAt;
      const status = upRes.statusCode ?? 502;
      if (input.handBack?.has(status)) {
        upRes.resume();
        finish({ kind: "status", status });
        return;
      }
      const received = pairsOf(upRes.rawHeaders);
      const origin = settings.rewriteUrls ? proxyOrigin(from) : null;
      const outHeaders = rewriteHeaderUrls(endToEnd(received), target, origin);
      const contentType = headerValue(received, "content-type");
      const encoding = headerValue(received, "content-encoding");
      // JSON answers sent without compression are held whole when URLs are rewritten in them (they are small);
      // everything else streams through as it comes (event streams, images, zips)
      let rewriteBody =
        origin !== null && /[/+]json\b/.test(contentType ?? "") && (!encoding || encoding === "identity");
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      const response = {
        status,
        statusText: upRes.statusMessage ?? "",
        httpVersion: upRes.httpVersion,
        headers: received,
        body: Buffer.alloc(0),
      } as NonNullable<Exchange["response"]>;
      exchange.response = response;
      if (!rewriteBody) res.writeHead(status, upRes.statusMessage || undefined, flat(outHeaders));
      upRes.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (rewriteBody && total > settings.maxCaptureBytes) {
          // too big to hold: passed on as it came, URLs left alone
          rewriteBody = false;
          res.writeHead(status, upRes.statusMessage || undefined, flat(outHeaders));
          for (const c of chunks) res.write(c);
        }
        if (kept < settings.maxCaptureBytes) {
          chunks.push(chunk);
          kept += chunk.length;
        }
        if (!rewriteBody && !res.write(chunk)) {
          upRes.pause();
          res.once("drain", () => upRes.resume());
        }
      });
      upRes.on("end", () => {
        exchange.timings.receive = performance.now() - firstByteAt;
        const body = Buffer.concat(chunks);
        response.body = kept > settings.maxCaptureBytes ? body.subarray(0, settings.maxCaptureBytes) : body;
        if (total > response.body.length) response.truncated = { bytes: total };
        if (rewriteBody) {
          const text = body
            .toString("utf8")
            .split(target.base.origin)
            .join(origin as string);
          const out = Buffer.from(text);
          const replaced = outHeaders.filter(([k]) => k.toLowerCase() !== "content-length");
          replaced.push(["content-length", String(out.length)]);
          res.writeHead(status, upRes.statusMessage || undefined, flat(replaced));
          res.end(out);
        } else res.end();
        finish({ kind: "answered" });
      });
      upRes.on("error", (err) => up.emit("error", err));
      upRes.on("aborted", () => up.emit("error", Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
    });
    up.end(req.body.length > 0 ? req.body : undefined);
  });
}
