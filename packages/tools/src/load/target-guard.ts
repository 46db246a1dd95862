// Load is traffic someone pays for: by default it only goes to this machine. A remote target needs
// --allow-remote, so a typo in --target cannot hammer a production host.
import { isIP } from "node:net";

export type TargetCheck = { ok: true; url: URL } | { ok: false; error: string };

const LOOPBACK_NAMES = new Set(["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"]);

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || /^::ffff:127\./.test(host) || /^0*:(0*:)*0*1$/.test(host);
  return false;
}

export function checkTarget(target: string, allowRemote: boolean): TargetCheck {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, error: `--target "${target}" is not a URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, error: `--target must be http(s), not ${url.protocol}` };
  if (!allowRemote && !isLoopbackHost(url.hostname))
    return {
      ok: false,
      error: `refusing to load ${url.host}: not a loopback address (pass --allow-remote to load a remote target)`,
    };
  return { ok: true, url };
}
