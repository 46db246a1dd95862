// @plumbline-kit/platform: the contract behaviour the mock and the reference share (issue 36), written once over
// store, clock and engine interfaces. An internal layer: users install @plumbline-kit/mock or
// @plumbline-kit/reference, which build on it.
export { type CreatePlatformOptions, createPlatform } from "./create-platform.ts";
