// Lints the document with Redocly's rule engine (the one Redocly CLI runs), "recommended" rules.

import { SPEC_PATH } from "@plumbline-kit/contract/document";
import { createConfig, lint } from "@redocly/openapi-core";

export interface LintProblem {
  rule: string;
  severity: "error" | "warn";
  message: string;
  at: string;
}

export async function lintDocument(path: string = SPEC_PATH): Promise<LintProblem[]> {
  const config = await createConfig({
    extends: ["recommended"],
    rules: {
      // the discovery documents and /health are public on purpose
      "security-defined": "off",
      // localhost servers are the mock's and the reference's defaults
      "no-server-example.com": "off",
      // health and the discovery documents list no 4xx in the contract (interface-spec "GET /health")
      "operation-4xx-response": "off",
      // DeepcrawlManifest describes manifest.json inside the deepcrawl zip, not an HTTP body (D-deepcrawl-zip)
      "no-unused-components": "off",
    },
  });
  const problems = await lint({ ref: path, config });
  return problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity === "error" ? "error" : "warn",
    message: p.message,
    at: p.location.map((l) => l.pointer ?? "").join(" "),
  }));
}
