// The lazy listener maps (lazy-listeners.ts) are installed in the linkedom this project pins, and events behave as
// linkedom's own: listeners run in order, once-listeners once, removal works, events bubble to parents when asked,
// stopImmediatePropagation stops the rest, an object's handleEvent is called.
import { Event, EventTarget } from "linkedom";
import { describe, expect, it } from "vitest";
import { parseDocument } from "./html-document.ts";
import { installLazyListeners } from "./lazy-listeners.ts";

describe("lazy listener maps in linkedom", () => {
  it("are installed in the pinned linkedom (parsing takes the fast path)", () => {
    expect(installLazyListeners()).toBe(true);
  });

  it("keep events working on parsed nodes", () => {
    const doc = parseDocument("<div id=outer><p id=inner>text</p></div>");
    const outer = doc.getElementById("outer") as Element;
    const inner = doc.getElementById("inner") as Element;
    const seen: string[] = [];
    const once = () => seen.push("once");
    const gone = () => seen.push("removed");
    inner.addEventListener("ping", (e) => seen.push(`inner:${e.type}`));
    inner.addEventListener("ping", once, { once: true });
    inner.addEventListener("ping", gone);
    inner.removeEventListener("ping", gone);
    outer.addEventListener("ping", { handleEvent: (e: { eventPhase: number }) => seen.push(`outer:${e.eventPhase}`) });
    inner.dispatchEvent(new Event("ping", { bubbles: true }) as unknown as globalThis.Event);
    inner.dispatchEvent(new Event("ping") as unknown as globalThis.Event);
    expect(seen).toEqual(["inner:ping", "once", "outer:3", "inner:ping"]);
  });

  it("stop at stopImmediatePropagation, and serve a plain EventTarget too", () => {
    const target = new EventTarget();
    const seen: number[] = [];
    target.addEventListener(
      "x",
      (e: { stopImmediatePropagation(): void }) => {
        seen.push(1);
        e.stopImmediatePropagation();
      },
      undefined,
    );
    target.addEventListener("x", () => seen.push(2), undefined);
    expect(target.dispatchEvent(new Event("x"))).toBe(true);
    expect(seen).toEqual([1]);
  });
});
