// The Payment HTTP authentication scheme's SDK (mppx), as plumbline's packages use it. From the repository's
// sources this re-exports the installed mppx; `npm run build` replaces these modules in dist/ with a bundle of the
// parts used (tools/build.js, esbuild), so an installed package does not depend on mppx, whose required peer viem
// weighs 75 MB: the mock and the client tools stay light, and one copy of the SDK serves every package. The
// production methods (Tempo, Stripe) are in ./mppx-server.ts and ./mppx-client.ts, loaded only when configured.
// The declarations still name mppx's (and viem's) types, so both are optional peers of the contract package: a
// TypeScript user who touches the payment types installs them; nothing needs them at run time.
export { Challenge, Credential, Errors, Method, PaymentRequest, Receipt, z } from "mppx";
export { Mppx, Transport } from "mppx/server/core";
