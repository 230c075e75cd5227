import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, type ModelResponse } from "@yardstick/core";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openRequestCache } from "./request-cache.js";
import { REQUEST_CACHE_FORMAT } from "./request-cache-format.js";

const cachePath = (): string => join(mkdtempSync(join(tmpdir(), "ys-cache-")), "requests.sqlite");

function refusal(open: () => unknown): ConfigError {
  try {
    open();
  } catch (e) {
    if (ConfigError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

const DAY = 86_400_000;

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

  it("answers prefetched keys (found or not) as a lookup would, in batches of any size", () => {
    const path = cachePath();
    const writer = openRequestCache({ path });
    const keys = Array.from({ length: 600 }, (_, i) => `key-${i}`);
    keys.forEach((k, i) => {
      if (i % 3 !== 0) writer.put(k, "m", { text: `answer ${i}` });
    });
    writer.close();
    const cache = openRequestCache({ path, flushIntervalMs: 10_000 });
    const expected = keys.map((k) => cache.get(k));
    expect(expected.filter((v) => v !== undefined)).toHaveLength(400);
    cache.prefetch!(keys); // more than one query's worth
    expect(keys.map((k) => cache.get(k))).toEqual(expected);
    // Each prefetched answer is handed out once; a second get asks the database again (same answer).
    expect(cache.get("key-1")).toEqual({ text: "answer 1" });
    // A miss looked up ahead of time is not a miss any more once the answer is put.
    cache.prefetch!(["key-0", "key-3"]);
    cache.put("key-0", "m", { text: "late" });
    expect(cache.get("key-0")).toEqual({ text: "late" });
    expect(cache.get("key-3")).toBeUndefined();
    // Answers still held from a prefetch go when entries are cleared.
    cache.prefetch!(["key-2"]);
    cache.clear();
    expect(cache.get("key-2")).toBeUndefined();
    cache.close();
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

  it("stores a response's answer once and gives it back as it was, key order included", () => {
    const path = cachePath();
    const logprobs = { tokens: ["Po", "sitif"], tokenLogprobs: [-0.1, -0.2], textOffset: [0, 2] };
    const first = { text: "Positif, jelas sekali", finishReason: "stop" as const, reasoningContent: "hmm, let me think", logprobs };
    const response: ModelResponse = {
      text: first.text,
      finishReason: "stop",
      choices: [first, { text: "Negatif", finishReason: "length" }],
      reasoningContent: first.reasoningContent,
      logprobs,
      usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 },
      model: "m",
    };
    const cache = openRequestCache({ path });
    cache.put("r", "m", response);
    cache.put("plain", "m", [-1.5, -0.25]);
    cache.close();
    const raw = new Database(path, { readonly: true });
    const stored = (raw.prepare("SELECT value FROM responses WHERE key = 'r'").get() as { value: string }).value;
    raw.close();
    expect(stored.split("Positif, jelas sekali").length - 1).toBe(1);
    expect(stored.split("hmm, let me think").length - 1).toBe(1);
    expect(stored.split('"sitif"').length - 1).toBe(1);
    const again = openRequestCache({ path });
    expect(JSON.stringify(again.get("r"))).toBe(JSON.stringify(response));
    expect(again.get("plain")).toEqual([-1.5, -0.25]);
    again.close();
  });

  it("keeps a response whose top level does not copy its first choice exactly as given", () => {
    const odd = { text: "a", finishReason: "stop", choices: [{ text: "b", finishReason: "stop" }] };
    const cache = openRequestCache({ path: cachePath() });
    cache.put("odd", "m", odd);
    cache.flush();
    expect(cache.get("odd")).toEqual(odd);
    cache.close();
  });

  it("upgrades a cache written before format versions in place and reads its entries", () => {
    const path = cachePath();
    const old = new Database(path);
    old.exec("CREATE TABLE responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL)");
    old.prepare("INSERT INTO responses VALUES (?, ?, ?, ?)").run("k", "openai-compatible:m", JSON.stringify({ text: "x", finishReason: "stop", choices: [{ text: "x", finishReason: "stop" }] }), 1_700_000_000_000);
    old.close();
    const cache = openRequestCache({ path });
    expect(cache.get("k")).toEqual({ text: "x", finishReason: "stop", choices: [{ text: "x", finishReason: "stop" }] });
    cache.put("k2", "openai-compatible:m", { text: "y", finishReason: "stop", choices: [{ text: "y", finishReason: "stop" }] });
    expect(cache.info()).toMatchObject({ formatVersion: REQUEST_CACHE_FORMAT, entries: 2 });
    cache.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(REQUEST_CACHE_FORMAT);
    check.close();
  });

  it("refuses a cache of a newer format, naming the file and leaving it as it is", () => {
    const path = cachePath();
    openRequestCache({ path }).close();
    const db = new Database(path);
    db.pragma(`user_version = ${REQUEST_CACHE_FORMAT + 1}`);
    db.close();
    const error = refusal(() => openRequestCache({ path }));
    expect(error.message).toContain(path);
    expect(error.message).toContain(`format version ${REQUEST_CACHE_FORMAT + 1}, newer than this yardstick reads`);
    const check = new Database(path, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(REQUEST_CACHE_FORMAT + 1);
    check.close();
  });

  it("refuses a file that is not a request cache, naming it and leaving it as it is", () => {
    const garbage = cachePath();
    writeFileSync(garbage, "this is not a database, just some text that is long enough to look like a header".repeat(20));
    const error = refusal(() => openRequestCache({ path: garbage }));
    expect(error.message).toMatch(new RegExp(`^${garbage.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not a yardstick request cache \\(SQLite says: file is not a database\\)`));
    expect(readFileSync(garbage, "utf8").startsWith("this is not a database")).toBe(true);
    const other = cachePath();
    const db = new Database(other);
    db.exec("CREATE TABLE notes (id INTEGER)");
    db.close();
    expect(refusal(() => openRequestCache({ path: other })).message).toContain("it holds other tables");
    expect(refusal(() => openRequestCache({ path: join(tmpdir(), "ys-no-such-dir", "x.sqlite"), mustExist: true })).message).toContain("no request cache here");
  });

  it("reports what it holds, per model identity", () => {
    let now = 10 * DAY;
    const cache = openRequestCache({ path: cachePath(), clock: () => now });
    expect(cache.info()).toMatchObject({ entries: 0, models: [] });
    cache.put("a1", "openai-compatible:a", 1);
    cache.put("a2", "openai-compatible:a", 2);
    cache.flush();
    now = 12 * DAY;
    cache.put("b1", "openai-compatible:b#{\"served\":{\"root\":\"/ckpt\"}}", 3);
    const info = cache.info();
    expect(info.entries).toBe(3);
    expect(info.models).toEqual([
      { model: "openai-compatible:a", entries: 2, oldest: 10 * DAY, newest: 10 * DAY },
      { model: 'openai-compatible:b#{"served":{"root":"/ckpt"}}', entries: 1, oldest: 12 * DAY, newest: 12 * DAY },
    ]);
    expect([info.oldest, info.newest]).toEqual([10 * DAY, 12 * DAY]);
    expect(info.sizeBytes).toBeGreaterThan(0);
    cache.close();
  });

  it("prunes by age and by model-identity prefix, and clears", () => {
    let now = 100 * DAY;
    const cache = openRequestCache({ path: cachePath(), clock: () => now });
    for (const [key, model, day] of [
      ["old-a", "openai-compatible:a", 80],
      ["old-b", "openai-compatible:b", 80],
      ["mid-a", "openai-compatible:a", 95],
      ["new-a", "openai-compatible:a#{}", 100],
      ["new-x", "baseline:random:x", 100],
    ] as const) {
      now = day * DAY;
      cache.put(key, model, key);
      cache.flush();
    }
    now = 100 * DAY;
    expect(cache.prune({ olderThanDays: 30 })).toBe(0);
    expect(cache.prune({ olderThanDays: 10 })).toBe(2);
    expect(cache.get("old-a")).toBeUndefined();
    expect(cache.get("mid-a")).toBe("mid-a");
    expect(cache.prune({ olderThanDays: 1, model: "baseline:" })).toBe(0);
    expect(cache.prune({ olderThanDays: 1, model: "openai-compatible:a" })).toBe(1);
    expect(cache.get("new-a")).toBe("new-a");
    expect(() => cache.prune({})).toThrow(/prune needs an age/);
    expect(() => cache.prune({ olderThanDays: -1 })).toThrow(/number of days >= 0/);
    expect(cache.clear({ model: "openai-compatible:" })).toBe(1);
    expect(cache.clear()).toBe(1);
    expect(cache.info().entries).toBe(0);
    cache.close();
  });

  it("gives the space of removed entries back", () => {
    const path = cachePath();
    const cache = openRequestCache({ path, maxBuffered: 10_000 });
    const big = "x".repeat(4000);
    for (let i = 0; i < 500; i++) cache.put(`k${i}`, "m", `${big}${i}`);
    const full = cache.info().sizeBytes;
    expect(full).toBeGreaterThan(2_000_000);
    expect(cache.clear()).toBe(500);
    expect(cache.info().sizeBytes).toBeLessThan(full / 10);
    cache.close();
  });
});
