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

export class ChangeCollector {
  private readonly byKey = new Map<string, SpecChange>();
  constructor(private readonly sides: Sides) {}

  add(rule: RuleId, message: string, base: string | null, revision: string | null, operation?: string): void {
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
  }

  changes(): SpecChange[] {
    return [...this.byKey.values()];
  }
}
