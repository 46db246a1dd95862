// The versions of the contract, apart from the loader so that a command's definition can offer `--contract`
// without loading the OpenAPI parser (packages/cli/src/light-definitions.test.ts).

/** The versions of the contract a command serves or judges (`--contract`); the seed is the default everywhere. */
export const CONTRACT_VERSIONS = ["seed", "live"] as const;
export type ContractVersion = (typeof CONTRACT_VERSIONS)[number];
