// D-echo: searchParameters / trendingParameters carry every field of the request with the same value. Which
// response member is an echo is read from the document: a member marked `x-decision: D-echo`, or whose schema is
// the request's own object schema.
import { isDeepStrictEqual } from "node:util";
import { objectBranch } from "../../spec/bounds.ts";
import type { JsonSchema, OperationSpec } from "../../spec/index.ts";
import { type CheckFailure, fail } from "./check-failure.ts";

type Obj = Record<string, unknown>;

function withoutExtensions(schema: JsonSchema): string {
  return JSON.stringify(Object.fromEntries(Object.entries(schema).filter(([k]) => !k.startsWith("x-"))));
}

/** The name of the member of the success answer that echoes the request, if any. */
export function echoMember(op: OperationSpec): string | null {
  const request = objectBranch(op);
  const ok = [...op.responses.values()].find((r) => r.status >= 200 && r.status < 300);
  const schema = ok?.content["application/json"];
  if (!request || !schema) return null;
  const target = withoutExtensions(request);
  for (const candidate of [schema, ...(schema.oneOf ?? [])]) {
    for (const [name, sub] of Object.entries(candidate.properties ?? {})) {
      if (sub["x-decision"] === "D-echo" || withoutExtensions(sub) === target) return name;
    }
  }
  return null;
}

function compare(member: string, sent: Obj, echoed: unknown, where: string): CheckFailure[] {
  if (echoed === null || typeof echoed !== "object") return [fail("parameter-echo", `${where}${member} is missing`)];
  const out: CheckFailure[] = [];
  for (const [k, v] of Object.entries(sent)) {
    const got = (echoed as Obj)[k];
    if (!isDeepStrictEqual(got, v)) {
      out.push(
        fail(
          "parameter-echo",
          `${where}${member}.${k} is ${JSON.stringify(got)?.slice(0, 80)}, sent ${JSON.stringify(v)?.slice(0, 80)}`,
        ),
      );
    }
  }
  return out;
}

/** Echo failures of a 2xx answer to `body` (a single body or a batch with `results[].data`). */
export function echoFailures(member: string | null, body: unknown, json: unknown): CheckFailure[] {
  if (!member || json === null || typeof json !== "object") return [];
  if (!Array.isArray(body)) return compare(member, body as Obj, (json as Obj)[member], "");
  const results = (json as Obj).results;
  if (!Array.isArray(results)) return [];
  return results.flatMap((r, i) =>
    (r as Obj)?.success === true
      ? compare(member, body[i] as Obj, ((r as Obj).data as Obj | undefined)?.[member], `results[${i}].data.`)
      : [],
  );
}
