// The User-Agent of every outbound request (issue 5: "a descriptive User-Agent"), so site owners can tell who
// fetched their pages and where to read about it. The version is plumbline's own, from package.json; the "+URL"
// (the convention crawlers follow) is package.json's `homepage` when it has one. A deployment names its own
// contact page with `--user-agent`, since only the operator knows where site owners should write.
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  homepage?: string;
};

export const DEFAULT_USER_AGENT = `plumbline-reference/${pkg.version}${pkg.homepage ? ` (+${pkg.homepage})` : ""}`;
