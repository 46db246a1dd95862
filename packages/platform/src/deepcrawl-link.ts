// Signed, expiring zipUrls (D-deepcrawl-zip, issue 11): `/deepcrawl/files/{taskId}.zip?expires=…&signature=…`,
// the signature an HMAC-SHA256 over the task id and the expiry with a server secret. Every instance sharing the
// secret (the reference keeps it in its database) and every restart agree on a link; a poll re-signs, so a finished
// task always hands out a fresh link to the same package. The mock signs on its virtual clock.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "./stores.ts";

export interface ZipLinkOptions {
  /** at least 32 bytes of entropy; the reference persists one in its database */
  secret: string | Buffer;
  clock: Clock;
  /** how long a link stays valid (default one hour) */
  ttlMs?: number;
}

export interface ZipLinks {
  /** The path and query of a link to the task's package, valid for ttlMs from now. */
  sign(taskId: string): string;
  /** Whether a link's query was signed by this secret for this task and has not expired. */
  verify(taskId: string, query: { expires?: unknown; signature?: unknown }): boolean;
}

export const DEFAULT_ZIP_LINK_TTL_MS = 60 * 60 * 1000;

/** Where a completed task's zip is served (a plumbline route beside the contract's paths). */
export function zipPath(taskId: string): string {
  return `/deepcrawl/files/${encodeURIComponent(taskId)}.zip`;
}

/** A fresh random secret (the mock's, or the reference's first start). */
export function newLinkSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function createZipLinks(o: ZipLinkOptions): ZipLinks {
  const ttlMs = o.ttlMs ?? DEFAULT_ZIP_LINK_TTL_MS;
  const mac = (taskId: string, expires: number) =>
    createHmac("sha256", o.secret).update(`deepcrawl-zip\n${taskId}\n${expires}`).digest();
  return {
    sign(taskId) {
      // whole seconds, as a client reading the query would expect an epoch timestamp
      const expires = Math.ceil((o.clock.now() + ttlMs) / 1000);
      const signature = mac(taskId, expires).toString("base64url");
      return `${zipPath(taskId)}?expires=${expires}&signature=${signature}`;
    },
    verify(taskId, query) {
      const { expires, signature } = query;
      if (typeof expires !== "string" || typeof signature !== "string" || !/^\d{1,15}$/.test(expires)) return false;
      const at = Number(expires);
      if (at * 1000 <= o.clock.now()) return false;
      const given = Buffer.from(signature, "base64url");
      const wanted = mac(taskId, at);
      return given.length === wanted.length && timingSafeEqual(given, wanted);
    },
  };
}
