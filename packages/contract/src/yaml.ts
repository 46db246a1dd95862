// The `yaml` package, loaded when first used: a command that only reads the build's checked copy of the contract
// (document.ts) never parses YAML, and loading the package (~70 modules) was ~50 ms of every command's start.
import { createRequire } from "node:module";

type YamlModule = typeof import("yaml");
let loaded: YamlModule | undefined;
const yaml = (): YamlModule => {
  loaded ??= createRequire(import.meta.url)("yaml") as YamlModule;
  return loaded;
};

/** `yaml`'s parse (YAML 1.2, the package's defaults). */
export const parseYaml = (text: string, options?: Parameters<YamlModule["parse"]>[2]): unknown =>
  yaml().parse(text, options);

/** `yaml`'s stringify. */
export const stringifyYaml = (value: unknown, options?: Parameters<YamlModule["stringify"]>[2]): string =>
  yaml().stringify(value, null, options);
