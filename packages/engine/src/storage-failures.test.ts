/**
 * A full disk and a damaged cache page, at the level of the run store and the request cache: one
 * StorageError naming the file and what to do, nothing stored before it lost. The full disk is real
 * without root: Linux's /dev/full answers every write with ENOSPC, and SQLite's max_page_count makes
 * SQLite itself answer SQLITE_FULL. (runner/src/full-disk.test.ts runs the CLI against a size-limited
 * file and, where mounting is allowed, a 1 MB tmpfs.)
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, symlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openRequestCache } from "./request-cache.js";
import { type ResponseRecord, type RunManifest, RunStore, type SampleRecord } from "./run-store.js";
import { StorageError } from "./storage-error.js";

const HAS_DEV_FULL = existsSync("/dev/full");

const manifest: RunManifest = {
  formatVersion: 2,
  yardstickVersion: "0.1.0",
  versions: {},
  fingerprint: "f1",
  fingerprintParts: { tasks: "", data: {}, model: "p:m", options: {} },
  createdAt: "2026-01-01T00:00:00.000Z",
  models: { generate: { provider: "p", modelId: "m", identity: "p:m" } },
  options: {},
  tasks: [],
};

const record = (sample: string): ResponseRecord => ({
  task: "t",
  sample,
  turn: 1,
  stage: "generate",
  status: "ok",
  key: `k-${sample}`,
  promptHash: `h-${sample}`,
  cached: false,
  choices: [{ text: `answer ${sample}`, finishReason: "stop" }],
  time: "2026-01-01T00:00:00.000Z",
});

const sampleRecord = (sample: string): SampleRecord => ({ task: "t", sample, index: 0, input: { prompts: [] } }) as unknown as SampleRecord;

async function caught(p: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

async function storedSamples(dir: string): Promise<string[]> {
  const store = new RunStore(dir);
  const out: string[] = [];
  for await (const r of store.readResponses()) out.push(r.sample);
  return out;
}

describe.skipIf(!HAS_DEV_FULL)("run store on a full disk (/dev/full)", () => {
  it("a failed append is one StorageError naming the file, raised once; the records before it and the folder stay usable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-full-"));
    const store = new RunStore(dir);
    await store.open(manifest);
    for (const s of ["a", "b", "c"]) store.append(record(s));
    await store.written();
    // From here on the task's samples file is a full disk.
    symlinkSync("/dev/full", store.samplesPath("t"));
    store.appendSample(sampleRecord("d"));
    store.append(record("d"));
    const err = await caught(store.written());
    expect(StorageError.isInstance(err)).toBe(true);
    const e = err as StorageError;
    expect(e.file).toBe(store.samplesPath("t"));
    expect(e.reason).toBe("ENOSPC");
    expect(e.message).toBe(
      `${store.samplesPath("t")}: cannot write: no space left on the disk (ENOSPC). Free some space and run the same command again: the answers already stored in ${dir} are kept and are not asked again.`,
    );
    // Later appends are refused with the same error, not lost silently.
    expect(await caught(() => store.append(record("e")))).toBe(err);
    // close() does not raise it a second time, and frees the lock.
    await store.close();
    expect(existsSync(store.lockPath)).toBe(false);
    expect((await storedSamples(dir)).slice(0, 3)).toEqual(["a", "b", "c"]);
    // Space freed (the samples file a file again): the same folder opens and takes appends.
    rmSync(store.samplesPath("t"));
    const again = new RunStore(dir);
    await again.open(manifest);
    again.appendSample(sampleRecord("e"));
    again.append(record("e"));
    await again.written();
    await again.close();
    expect(await storedSamples(dir)).toContain("e");
  });

  it("a failure no caller saw yet (the last write before close) is raised by close()", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-full-"));
    const store = new RunStore(dir);
    await store.open(manifest);
    symlinkSync("/dev/full", store.samplesPath("t"));
    store.appendSample(sampleRecord("a"));
    const err = await caught(store.close());
    expect(StorageError.isInstance(err)).toBe(true);
    expect((err as StorageError).file).toBe(store.samplesPath("t"));
    expect(existsSync(store.lockPath)).toBe(false);
  });

  it("results.json is replaced whole or not at all", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-full-"));
    const store = new RunStore(dir);
    await store.open(manifest);
    await store.writeResults({ score: 1 });
    symlinkSync("/dev/full", `${store.resultsPath}.tmp-${process.pid}`);
    const err = await caught(store.writeResults({ score: 2 }));
    expect(StorageError.isInstance(err)).toBe(true);
    expect((err as Error).message).toMatch(/results\.json: cannot write: no space left on the disk \(ENOSPC\)/);
    expect(JSON.parse(readFileSync(store.resultsPath, "utf8"))).toEqual({ score: 1 });
    expect(existsSync(`${store.resultsPath}.tmp-${process.pid}`)).toBe(false);
    await store.close();
  });
});

const cachePath = (): string => join(mkdtempSync(join(tmpdir(), "ys-cache-")), "requests.sqlite");
const answer = (i: number) => ({ text: `answer number ${i} ${"x".repeat(300)}` });

describe("request cache on a full disk (SQLITE_FULL)", () => {
  it("names the file and the way out; entries committed before stay, and the cache works once there is room", () => {
    const path = cachePath();
    const first = openRequestCache({ path });
    for (let i = 0; i < 20; i++) first.put(`k${i}`, "m", answer(i));
    first.close();
    const pages = Math.ceil(statSync(path).size / 4096);
    // Room for a few more pages only: SQLite itself answers SQLITE_FULL, as on a full disk.
    const full = openRequestCache({ path, maxPages: pages + 2, flushIntervalMs: 60_000 });
    for (let i = 20; i < 200; i++) full.put(`k${i}`, "m", answer(i));
    const err = (() => {
      try {
        full.flush();
      } catch (e) {
        return e;
      }
      throw new Error("expected SQLITE_FULL");
    })();
    expect(StorageError.isInstance(err)).toBe(true);
    const e = err as StorageError;
    expect(e.reason).toBe("SQLITE_FULL");
    expect(e.message).toBe(
      `${path}: cannot write the request cache: the disk is full (SQLITE_FULL). Free some space and run the same command again, or set YARDSTICK_CACHE_DIR to another folder, or run with --no-cache (on another disk); the run store keeps the answers already received, so a new run asks only for the rest.`,
    );
    // Every later call says the same, and close() does not throw it again.
    expect(() => full.get("k0")).toThrow(e.message);
    expect(() => full.put("k999", "m", answer(999))).toThrow(e.message);
    full.close();
    const roomy = openRequestCache({ path });
    for (let i = 0; i < 20; i++) expect(roomy.get(`k${i}`)).toEqual(answer(i));
    roomy.put("k200", "m", answer(200));
    roomy.close();
    expect(openRequestCache({ path }).get("k200")).toEqual(answer(200));
  });

  it("a flush on the timer that fails is raised by the next call, not thrown into the event loop", async () => {
    const path = cachePath();
    openRequestCache({ path }).close();
    const pages = Math.ceil(statSync(path).size / 4096);
    const cache = openRequestCache({ path, maxPages: pages, flushIntervalMs: 1 });
    for (let i = 0; i < 50; i++) cache.put(`k${i}`, "m", answer(i));
    await new Promise((r) => setTimeout(r, 30));
    expect(() => cache.get("k1")).toThrow(/SQLITE_FULL/);
    cache.close();
  });

  it("a failure only the timer saw is raised by close()", async () => {
    const path = cachePath();
    openRequestCache({ path }).close();
    const pages = Math.ceil(statSync(path).size / 4096);
    const cache = openRequestCache({ path, maxPages: pages, flushIntervalMs: 1 });
    for (let i = 0; i < 50; i++) cache.put(`k${i}`, "m", answer(i));
    await new Promise((r) => setTimeout(r, 30));
    expect(() => cache.close()).toThrow(/cannot write the request cache: the disk is full \(SQLITE_FULL\)/);
  });
});

describe("request cache with a damaged page", () => {
  it("names the file and says to delete it, instead of an internal error", () => {
    const path = cachePath();
    const cache = openRequestCache({ path });
    for (let i = 0; i < 2000; i++) cache.put(`k${i}`, "m", answer(i));
    cache.close();
    const pages = Math.floor(statSync(path).size / 4096);
    expect(pages).toBeGreaterThan(50);
    // Overwrite pages in the middle of the file, as a failing disk would.
    const fd = openSync(path, "r+");
    for (let p = Math.floor(pages / 3); p < Math.floor(pages / 3) + 10; p++) writeSync(fd, Buffer.alloc(4096, 0xde), 0, 4096, p * 4096);
    closeSync(fd);
    const damaged = openRequestCache({ path });
    let err: unknown;
    for (let i = 0; i < 2000 && err === undefined; i++) {
      try {
        damaged.get(`k${i}`);
      } catch (e) {
        err = e;
      }
    }
    expect(StorageError.isInstance(err)).toBe(true);
    const e = err as StorageError;
    expect(e.reason).toMatch(/^SQLITE_CORRUPT/);
    expect(e.message).toContain(`${path}: the request cache is damaged (SQLITE_CORRUPT`);
    expect(e.message).toContain(`Delete it (rm "${path}" "${path}-wal" "${path}-shm") to start a new cache`);
    damaged.close();
    // What the message says works: without the files, a new cache starts.
    rmSync(path);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    const fresh = openRequestCache({ path });
    fresh.put("k1", "m", answer(1));
    expect(fresh.get("k1")).toEqual(answer(1));
    fresh.close();
  });
});
