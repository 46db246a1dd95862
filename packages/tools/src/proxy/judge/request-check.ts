// A request judged against its operation, with the answer the service gives such a request (D-validation-status):
// the registry's request rules (spec/checks/request-rules.ts), so `--errors` refuses with exactly that answer
// before the request reaches the upstream.

import type { Contract } from "@plumbline-kit/contract";
import { checkRequest as judgeRequest, type RequestProblem } from "@plumbline-kit/contract/checks/index";
import type { Exchange } from "../exchange.ts";
import { headerValue } from "../hop-headers.ts";
import type { MatchedOperation } from "../operation-match.ts";

export type { RequestProblem };

export function checkRequest(contract: Contract, match: MatchedOperation, ex: Exchange): RequestProblem | null {
  return judgeRequest(contract, match.op, {
    path: ex.request.path,
    params: match.params,
    contentType: headerValue(ex.request.headers, "content-type"),
    body: ex.request.body,
  });
}
