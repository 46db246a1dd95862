// A change as `spec diff` reports it, and the collector the comparisons add to. One change is one fact about the
// contract: a schema shared by several operations changed once is one change naming every operation it touches.

import { type Level, RULE_BY_ID, type RuleId } from "./rules.ts";
import type { SpecSource } from "./spec-source.ts";

export interface ChangeSide {
  /** JSON pointer of the node in that document (where it is written, `$ref`s followed) */
  pointer: string;
  /** 1-based line of that node (its key) */
  line: number;
}

export interface SpecChange {
  rule: RuleId;
  level: Level;
  /** the operations it concerns, `METHOD /path` (empty for document-wide facts) */
  operations: string[];
  /** where BASE says it; null when it is only in REVISION */
  base: ChangeSide | null;
  /** where REVISION says it, or the nearest place in REVISION for something removed; null when only in BASE */
  revision: ChangeSide | null;
  /** one line, from the client's side */
  message: string;
}

export interface Sides {
  base: SpecSource;
  revision: SpecSource;
}

/** What the comparisons add to: the collector, or the collector for one response status (ChangeCollector.forStatus). */
export type ChangeSink = Pick<ChangeCollector, "add">;

export class ChangeCollector {
  private readonly byKey = new Map<string, SpecChange>();
  /** the response statuses whose bodies a change was found in, when it was found in bodies */
  private readonly statuses = new Map<SpecChange, Set<string>>();
  constructor(private readonly sides: Sides) {}

  /**
   * The sink for the body of one response status: a change found in an error body says which (a client reading
   * `taskId` of a 404 is not a client of the 200), and a schema shared by several statuses is one change naming them.
   */
  forStatus(status: string): ChangeSink {
    return {
      add: (rule, message, base, revision, operation) => this.add(rule, message, base, revision, operation, status),
    };
  }

  add(
    rule: RuleId,
    message: string,
    base: string | null,
    revision: string | null,
    operation?: string,
    status?: string,
  ): void {
    const key = `${rule}\u0000${base}\u0000${revision}\u0000${message}`;
    let change = this.byKey.get(key);
    if (!change) {
      change = {
        rule,
        level: (RULE_BY_ID.get(rule) as { level: Level }).level,
        operations: [],
        base: base === null ? null : { pointer: base, line: this.sides.base.lineOf(base) },
        revision: revision === null ? null : { pointer: revision, line: this.sides.revision.lineOf(revision) },
        message,
      };
      this.byKey.set(key, change);
    }
    if (operation && !change.operations.includes(operation)) change.operations.push(operation);
    if (status !== undefined) this.statuses.set(change, (this.statuses.get(change) ?? new Set()).add(status));
  }

  changes(): SpecChange[] {
    return [...this.byKey.values()].map((c) => {
      const statuses = [...(this.statuses.get(c) ?? [])].sort();
      // a success body is what the message means unless said otherwise: an error body is named
      if (statuses.every((s) => /^2/.test(s))) return c;
      const list = statuses.join(", ");
      return { ...c, message: `${c.message} (in the ${list} response${statuses.length > 1 ? "s" : ""})` };
    });
  }
}
