// The file package store: a package appears whole or not at all, and a sweep drops what a killed writer left
// (its temporary file) while committed packages stay; keys outside the store are refused.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFilePackageStore } from "./package-store.ts";

const dir = mkdtempSync(join(tmpdir(), "plumbline-file-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the file package store", () => {
  it("shows a package only once committed, and sweeps what a killed writer left", async () => {
    const store = createFilePackageStore(dir);
    const done = await store.create("deepcrawl/dc_a/1.zip");
    done.stream.end("first attempt");
    expect(await done.commit()).toBe(13);
    const killed = await store.create("deepcrawl/dc_a/2.zip");
    await new Promise<void>((resolve) => killed.stream.write("half a zip", () => resolve()));
    expect(await store.open("deepcrawl/dc_a/2.zip")).toBeNull();
    expect(readdirSync(join(dir, "deepcrawl/dc_a")).filter((f) => f.endsWith(".part"))).toHaveLength(1);
    await store.sweep("deepcrawl/dc_a");
    expect(readdirSync(join(dir, "deepcrawl/dc_a"))).toEqual(["1.zip"]);
    await store.sweep("deepcrawl/dc_never"); // nothing there: no error
    killed.stream.destroy();
  });

  it("refuses keys that leave the store", async () => {
    const store = createFilePackageStore(dir);
    for (const key of ["../escape.zip", "deepcrawl/../../x.zip", "/etc/passwd"]) {
      await expect(store.create(key)).rejects.toThrow(/bad package key/);
      await expect(store.sweep(key)).rejects.toThrow(/bad package key/);
    }
  });
});
