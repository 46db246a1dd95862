// Everything an implementation plugs into the platform (style: one injected record, as Prism's core takes).

import type { Contract, ErrorCode, OperationSpec, RateLimitPolicy } from "@plumbline-kit/contract";
import type { FastifyRequest } from "fastify";
import type { BatchLimits } from "./batch.ts";
import type { DeepcrawlService } from "./deepcrawl-service.ts";
import type { EngineContext, Engines } from "./engines.ts";
import type { RequestTimeouts } from "./framework-errors.ts";
import type { Executor } from "./operation-executors.ts";
import type { PaymentFault, PaymentGate } from "./payment-gate.ts";
import type { RecordedAnswers } from "./recorded-answers.ts";
import type { AccountStore, Clock, FeedbackStore, RateLimitStore } from "./stores.ts";

export interface PlatformOptions {
  contract: Contract;
  accounts: AccountStore;
  rateLimitStore: RateLimitStore;
  clock: Clock;
  engines: Engines;
  deepcrawl: DeepcrawlService;
  /** where POST /feedback keeps its reports (the live contract, D-feedback); absent: the operation is answered as
   * any operation without an engine (the document executor) */
  feedback?: FeedbackStore;
  /** overrides of the document's rate limits (D-rate-limits); `perAccount: 0` turns limiting off */
  rateLimits?: Partial<RateLimitPolicy>;
  /** recipient named in payment challenges */
  paymentRecipient?: string;
  /**
   * the authorization server the protected-resource metadata names (D-authorization-server): its issuer URL, or
   * `self` when the implementation serves one at its own base URL (the mock); absent: none is named
   */
  authorizationServer?: string;
  /** the base URL clients use, when it is not the address they reached (a proxy in front) */
  publicUrl?: string;
  /** {mcp_url} of the Discovery table: the hosted MCP endpoint is `{mcp_url}/mcp` (default: the base URL) */
  mcpUrl?: string;
  /** {site_url} of the Discovery table, named by the discovery documents (default: the base URL) */
  siteUrl?: string;
  /** maximum request body size in bytes (default 1 MiB) */
  bodyLimit?: number;
  logger?: boolean | Record<string, unknown>;
  /** per-request engine context (the mock reads seed and variability from Prefer) */
  engineContext?: (req: FastifyRequest) => Partial<EngineContext>;
  /** lets the mock fail chosen batch entries: a catalogue code, or null to run the entry */
  batchEntryFault?: (operationId: string, index: number, req: FastifyRequest) => ErrorCode | null;
  /** pay-per-request with the Payment scheme (D-payment-challenge); absent: the 402 names no payable method */
  payments?: PaymentGate;
  /** lets the mock refuse a presented Payment credential as expired, replayed or refused (Prefer: payment=…) */
  paymentFault?: (req: FastifyRequest) => PaymentFault | null;
  /**
   * answers recorded earlier, given instead of running an engine once a request has passed authentication, rate
   * limits, validation and the hold of its price (the mock's replay; recorded-answers.ts)
   */
  recorded?: RecordedAnswers;
  /** how long a request may take to arrive (D-framework-errors) */
  requestTimeouts?: Partial<RequestTimeouts>;
  /** batch concurrency and deadline (D-batch-execution) */
  batchLimits?: Partial<BatchLimits>;
  /**
   * the executor of an operation of the document that no engine serves (another version of the contract, which
   * adds one): the mock answers it from the document's examples or schema. Absent, such an operation is refused
   * when the platform is created, naming it.
   */
  documentExecutor?: (op: OperationSpec) => Executor;
}
