// mppx's client (createPayingFetch): loaded on a paying fetch's first call (./mppx.ts).

export * from "mppx/client";
export type { Account } from "viem";
