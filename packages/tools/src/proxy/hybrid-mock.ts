// The hybrid mode's one composition point: the stateful mock started through its public API (startMock) on an
// ephemeral loopback port, and handed to the proxy as a second upstream it talks HTTP to. The proxy core stays an
// HTTP client of its upstreams (it never calls into the mock), and this module, the only one of proxy/ that imports
// mock/, is loaded only when --mock, --forward or --fallback-on asks for it: a plain validating proxy loads none of
// the mock's code (Fastify, the synthetic engines), and the proxy stays usable with any target the mock is not.

import type { Contract } from "@plumbline-kit/contract";
import { startMock } from "@plumbline-kit/mock/start-mock";
import type { Exchange } from "./exchange.ts";
import { createTarget, type Target } from "./forwarder.ts";
import { headerValue } from "./hop-headers.ts";

export interface HybridMock {
  target: Target;
  url: string;
  /** opens an account for the request's bearer key in the mock the first time it is seen */
  beforeSend(exchange: Exchange): void;
  close(): Promise<void>;
}

export interface HybridMockOptions {
  contract: Contract;
  /** credits of each account the mock opens for a key it has not seen (the mock's ledger is its own) */
  credits: number;
  maxSockets: number;
}

export async function startHybridMock(o: HybridMockOptions): Promise<HybridMock> {
  // loopback only, any free port; private targets allowed, as a local mock is used (the upstream decides for real)
  const mock = await startMock({ host: "127.0.0.1", port: 0, contract: o.contract, allowPrivateNetwork: true });
  const opened = new Set(mock.keys.map((k) => k.key));
  return {
    target: createTarget("mock", mock.url, o.maxSockets),
    url: mock.url,
    beforeSend(exchange) {
      const m = /^Bearer\s+(\S+)$/i.exec(headerValue(exchange.request.headers, "authorization") ?? "");
      if (!m || opened.has(m[1])) return;
      opened.add(m[1]);
      try {
        mock.admin.createAccount({ key: m[1], credits: o.credits });
      } catch {
        // a key the mock refuses to hold is answered 401 by the mock, as it would be anyway
      }
    },
    close: () => mock.close(),
  };
}
