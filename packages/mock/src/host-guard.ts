// The mock on a developer's machine is reachable by every web page the developer opens: a page of another origin can
// send it a body-less POST (`/__mock/reset`) without asking, and a page whose host name is rebound to 127.0.0.1 (DNS
// rebinding) can read its answers as same-origin. So, as webpack-dev-server and Vite do (`allowedHosts`):
// - a request whose Host names a host the mock does not serve is refused: IP literals, `localhost` and
//   `*.localhost`, the host it listens on, the hosts of its public/MCP/site URLs and `allowedHosts` are served (a
//   rebinding attack needs a name of the attacker's; the port is not compared, so port maps and proxies work);
// - a call of the admin API (`/__mock…`) carrying an `Origin` other than the mock's own (as the Host names it) is
//   refused: a page of another origin cannot reset or steer the mock, while curl, tests and clients (no Origin) can.
// Both answer 403 PLB_REQUEST_FORBIDDEN in the contract's shape. The MSW handlers have no Host: they are not guarded.
import { isIP } from "node:net";
import { serializeError } from "@plumbline-kit/contract";
import { sendError } from "@plumbline-kit/platform/request-state";
import type { FastifyInstance } from "fastify";

export interface HostGuardOptions {
  /** host names served beside the built-in ones (`.example.com` also serves its subdomains); "all": any Host */
  allowedHosts?: readonly string[] | "all";
  /** the host the mock listens on, and the URLs it hands out (their host names are served) */
  listenHost?: string;
  urls?: (string | undefined)[];
}

/** The host name of a Host header (`[::1]:4010` → `::1`, `Mock.Local.:80` → `mock.local`). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(1, h.indexOf("]") < 0 ? h.length : h.indexOf("]")) : h.replace(/:\d*$/, "");
  return name.replace(/\.+$/, "");
}

export function hostAllowed(o: HostGuardOptions): (host: string | undefined) => boolean {
  if (o.allowedHosts === "all") return () => true;
  const exact = new Set<string>(["localhost"]);
  const suffixes: string[] = [".localhost"];
  for (const entry of [...(o.allowedHosts ?? []), o.listenHost ?? ""]) {
    const e = entry.trim().toLowerCase().replace(/\.+$/, "");
    if (!e) continue;
    if (e.startsWith(".")) {
      suffixes.push(e);
      exact.add(e.slice(1));
    } else exact.add(hostName(e));
  }
  for (const url of o.urls ?? []) {
    if (!url) continue;
    try {
      exact.add(hostName(new URL(url).host));
    } catch {
      // not a URL: nothing to serve
    }
  }
  const judge = (host: string) => {
    const name = hostName(host);
    return isIP(name) !== 0 || exact.has(name) || suffixes.some((s) => name.endsWith(s));
  };
  // a client sends the same Host on every request: its verdict is kept (a bounded map: a flood of invented names
  // is judged each time once it is full), so a request costs a lookup, not a parse
  const verdicts = new Map<string, boolean>();
  return (host) => {
    // HTTP/1.0 without a Host: no browser sends that
    if (host === undefined || host === "") return true;
    let ok = verdicts.get(host);
    if (ok === undefined) {
      ok = judge(host);
      if (verdicts.size < 256) verdicts.set(host, ok);
    }
    return ok;
  };
}

export function installHostGuard(app: FastifyInstance, o: HostGuardOptions): void {
  const allowed = hostAllowed(o);
  app.addHook("onRequest", (req, reply, done) => {
    const host = req.headers.host;
    if (!allowed(host)) {
      const message = `The mock does not serve the host name ${JSON.stringify(hostName(host ?? "").slice(0, 100))}; start it with --allowed-hosts NAME to serve it`;
      return sendError(reply, serializeError("PLB_REQUEST_FORBIDDEN", { message }));
    }
    const origin = req.headers.origin;
    if (origin !== undefined && req.url.startsWith("/__mock") && !sameOrigin(origin, host)) {
      const message = "The mock's admin API is not served to pages of another origin";
      return sendError(reply, serializeError("PLB_REQUEST_FORBIDDEN", { message }));
    }
    done();
  });
}

/** Whether an Origin header names the mock as the request addressed it (`http://` + Host). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const o = new URL(origin);
    return (o.protocol === "http:" || o.protocol === "https:") && o.host === new URL(`http://${host}`).host;
  } catch {
    return false; // "null" (a sandboxed page, a file) or garbage
  }
}
