// The tag-list fast path (tag-selectors.ts) answers what linkedom's css-select path answers: the same elements in
// the same order, from elements, fragments and documents, templates not entered, names in any case.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textLengthOf, wordCountOf } from "./article-text.ts";
import { parseDocument } from "./html-document.ts";
import { installTagSelectors, linkedomQuery, tagList } from "./tag-selectors.ts";

const pieces = ["text", "<p>", "</p>", "<div>", "</div>", "<b>", "</b>", "<img src=x>", "<br>", "<h1>", "</h1>"];
const more = ["<template>", "</template>", "<table><tr><td>", "</td></tr></table>", "<ul><li>", "</li></ul>"];
const fragment = fc.array(fc.constantFrom(...pieces, ...more), { maxLength: 40 }).map((p) => p.join(""));
const selectors = fc.constantFrom("p", "div", "b,img", "H1, p", "td", "template", "li,ul", "html", "body", "img");

describe("tag-list selectors", () => {
  it("are installed in the pinned linkedom", () => {
    expect(installTagSelectors()).toBe(true);
  });

  it("find what linkedom's own querySelectorAll and querySelector find", () => {
    const all = linkedomQuery("element:all") as (this: unknown, s: string) => Element[];
    const one = linkedomQuery("element:one") as (this: unknown, s: string) => Element | null;
    const docAll = linkedomQuery("document:all") as (this: unknown, s: string) => Element[];
    const docOne = linkedomQuery("document:one") as (this: unknown, s: string) => Element | null;
    fc.assert(
      fc.property(fragment, selectors, (html, sel) => {
        const doc = parseDocument(html);
        for (const el of [doc.body, ...doc.body.querySelectorAll("*")] as Element[]) {
          expect([...el.querySelectorAll(sel)]).toEqual([...all.call(el, sel)]);
          expect(el.querySelector(sel)).toBe(one.call(el, sel));
        }
        expect([...doc.querySelectorAll(sel)]).toEqual([...docAll.call(doc, sel)]);
        expect(doc.querySelector(sel)).toBe(docOne.call(doc, sel));
      }),
      { numRuns: 300 },
    );
  });

  it("leave other selectors to linkedom, and see elements made in upper case", () => {
    expect(tagList("p, div")).toEqual(new Set(["p", "div"]));
    expect(tagList("p > a")).toBeNull();
    expect(tagList("[id]")).toBeNull();
    const doc = parseDocument("<p id=a class=x><a href=/y>y</a></p>");
    expect(doc.querySelectorAll("p.x > a").length).toBe(1);
    const made = doc.createElement("DIV");
    doc.body.append(made);
    expect(doc.body.querySelectorAll("div")[0]).toBe(made);
  });

  it("walk a tree nested deeper than any stack without recursing (upstream pages no guard flattened)", () => {
    const depth = 30_000;
    const doc = parseDocument(`${"<div>".repeat(depth)}<p>deep words</p>${"</div>".repeat(depth)}`);
    expect(doc.body.querySelectorAll("p").length).toBe(1);
    expect(doc.querySelector("p")?.textContent).toBe("deep words");
    expect(wordCountOf(doc.body)).toBe(2);
    expect(textLengthOf(doc.body)).toBe("deep words".length);
  });
});
