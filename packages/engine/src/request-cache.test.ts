import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openRequestCache } from "./request-cache.js";

describe("request cache", () => {
  it("serves buffered writes at once and keeps them across reopen", () => {
    const path = join(mkdtempSync(join(tmpdir(), "ys-cache-")), "nested", "requests.sqlite");
    const cache = openRequestCache({ path, flushIntervalMs: 10_000 });
    expect(cache.get("k1")).toBeUndefined();
    cache.put("k1", "model-a", { text: "hello" });
    expect(cache.get("k1")).toEqual({ text: "hello" });
    cache.close();
    const again = openRequestCache({ path });
    expect(again.get("k1")).toEqual({ text: "hello" });
    expect(again.get("k2")).toBeUndefined();
    again.close();
  });

  it("is shared by two connections (WAL) after a flush", () => {
    const path = join(mkdtempSync(join(tmpdir(), "ys-cache-")), "requests.sqlite");
    const a = openRequestCache({ path });
    const b = openRequestCache({ path });
    a.put("shared", "m", [1, 2, 3]);
    expect(b.get("shared")).toBeUndefined();
    a.flush();
    expect(b.get("shared")).toEqual([1, 2, 3]);
    a.close();
    b.close();
  });

  it("flushes by itself once enough writes are buffered", () => {
    const path = join(mkdtempSync(join(tmpdir(), "ys-cache-")), "requests.sqlite");
    const a = openRequestCache({ path, maxBuffered: 3, flushIntervalMs: 60_000 });
    const b = openRequestCache({ path });
    for (let i = 0; i < 3; i++) a.put(`k${i}`, "m", i);
    expect(b.get("k2")).toBe(2);
    a.close();
    b.close();
  });
});
