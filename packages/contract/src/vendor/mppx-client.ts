// mppx's client (createPayingFetch): loaded on a paying fetch's first call (./mppx.ts).
export type { Account } from "viem";
export * from "mppx/client";
