// Test glue: a deepcrawl client over HTTP (start, poll to the end, download), as a user of the API would write it.
import { readDeepcrawlPackage } from "../packages/platform/src/deepcrawl-package.ts";

export interface Status {
  taskId: string;
  status: string;
  message?: string;
  error?: string | null;
  zipUrl?: string | null;
  r2Key?: string;
}

export async function startDeepcrawl(base: string, key: string, body: unknown): Promise<Response> {
  return fetch(`${base}/deepcrawl`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The status of a task, polled with the key of the account that started it (D-status-auth). */
export async function pollStatus(base: string, taskId: string, key: string): Promise<Status> {
  const r = await fetch(`${base}/deepcrawl/status/${taskId}`, { headers: { authorization: `Bearer ${key}` } });
  return (await r.json()) as Status;
}

/**
 * Polls until the task ends (or `until` says stop), every `intervalMs`; every state seen, in order. A poll costs
 * both sides ~3 ms of CPU: a test whose crawls take seconds polls less often than the default.
 */
export async function pollUntil(
  base: string,
  taskId: string,
  timeoutMs: number,
  key: string,
  until: (s: Status) => boolean = (s) => s.status === "completed" || s.status === "failed",
  intervalMs = 50,
): Promise<{ last: Status; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await pollStatus(base, taskId, key);
    if (seen.at(-1) !== s.status) seen.push(s.status);
    if (until(s)) return { last: s, seen };
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${s.status} (${s.message}) after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export async function download(zipUrl: string) {
  const res = await fetch(zipUrl);
  const zip = Buffer.from(await res.arrayBuffer());
  return { res, zip, ...(res.status === 200 ? readDeepcrawlPackage(zip) : { manifest: null, documents: new Map() }) };
}

export async function balance(base: string, key: string): Promise<number> {
  const r = await fetch(`${base}/usage`, { headers: { authorization: `Bearer ${key}` } });
  return ((await r.json()) as { usage: number }).usage;
}
