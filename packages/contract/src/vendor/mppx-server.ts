// mppx's server methods (Tempo, Stripe): loaded only when a production payment method is configured (./mppx.ts).
export * from "mppx/server";
