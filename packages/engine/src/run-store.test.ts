import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { type ResponseRecord, type RunManifest, RunStore } from "./run-store.js";

const manifest = (fingerprint: string): RunManifest => ({
  formatVersion: 2,
  yardstickVersion: "0.1.0",
  versions: {},
  fingerprint,
  fingerprintParts: { tasks: "", data: {}, model: "p:m", options: {} },
  createdAt: "2026-01-01T00:00:00.000Z",
  models: { generate: { provider: "p", modelId: "m", identity: "p:m" } },
  options: {},
  tasks: [],
});

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

async function collect(store: RunStore): Promise<ResponseRecord[]> {
  const out: ResponseRecord[] = [];
  for await (const r of store.readResponses()) out.push(r);
  return out;
}

describe("run store", () => {
  it("appends records and reads them back after reopening", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    expect((await store.open(manifest("f1"))).resumed).toBe(false);
    store.append(record("a"));
    store.append(record("b"));
    await store.close();
    const again = new RunStore(dir);
    expect((await again.open(manifest("f1"))).resumed).toBe(true);
    expect((await collect(again)).map((r) => r.sample)).toEqual(["a", "b"]);
    const kept = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    expect(kept.createdAt).toBe("2026-01-01T00:00:00.000Z");
    expect(kept.updatedAt).toBeDefined();
    await again.close();
  });

  it("cuts a line torn by a crash before appending again", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    store.append(record("a"));
    await store.close();
    appendFileSync(join(dir, "responses.jsonl"), '{"task":"t","sample":"b","tu');
    const again = new RunStore(dir);
    await again.open(manifest("f1"));
    again.append(record("c"));
    await again.close();
    const lines = readFileSync(join(dir, "responses.jsonl"), "utf8").split("\n");
    expect(lines.filter((l) => l !== "").map((l) => JSON.parse(l).sample)).toEqual(["a", "c"]);
  });

  it("refuses a different run in the same folder and leaves the stored one alone", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    store.append(record("a"));
    await store.close();
    const before = readFileSync(join(dir, "responses.jsonl"), "utf8");
    const other = new RunStore(dir);
    const err = await other.open(manifest("f2")).catch((e: unknown) => e);
    expect(ConfigError.isInstance(err)).toBe(true);
    expect(readFileSync(join(dir, "responses.jsonl"), "utf8")).toBe(before);
    expect(JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).fingerprint).toBe("f1");
  });

  it("lets a different run take over a store that holds no answer, clearing what the first left", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    store.appendSample({ task: "t", sample: "a", index: 0, raw: { id: "a" } } as never);
    await store.close();
    writeFileSync(join(dir, "responses.jsonl"), '{"task":"t","sample":"a","tu'); // a torn first line is no answer
    writeFileSync(join(dir, "run-stats.json"), "{}");
    const other = new RunStore(dir);
    expect(await other.open(manifest("f2"))).toEqual({ resumed: false });
    other.append(record("b"));
    await other.close();
    expect(JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).fingerprint).toBe("f2");
    expect(existsSync(join(dir, "samples", "t.jsonl"))).toBe(false);
    expect(existsSync(join(dir, "run-stats.json"))).toBe(false);
    expect((await collect(new RunStore(dir))).map((r) => r.sample)).toEqual(["b"]);
  });

  it("replaces derived files atomically", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    await store.writeScores("t/en", [{ sample: "a", index: 0, prediction: "x", scores: { correct: 1 } }]);
    await store.writeScores("t/en", [{ sample: "b", index: 1, prediction: "y", scores: { correct: 0 } }]);
    expect(await store.readScores("t/en")).toEqual([{ sample: "b", index: 1, prediction: "y", scores: { correct: 0 } }]);
    await store.writeResults({ total: 1 });
    expect(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))).toEqual({ total: 1 });
    await store.close();
  });
});

describe("run store: unreadable lines", () => {
  it("skips a line that is not a record and says which", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    store.append(record("a"));
    await store.close();
    // A version-1 record (before stages) is still read, upgraded; garbage and a record without its
    // required fields are skipped and reported with the reason.
    appendFileSync(
      join(dir, "responses.jsonl"),
      'garbage{\n{"task":"t","sample":"b","turn":1,"key":"k","promptHash":"h","cached":false,"text":"old","time":"t"}\nnull\n{"task":"t","sample":"c","turn":1,"stage":"generate","status":"ok","key":"k","promptHash":"h","cached":false,"time":"t"}\n',
    );
    const again = new RunStore(dir);
    await again.open(manifest("f1"));
    const read = await collect(again);
    expect(read.map((r) => r.sample)).toEqual(["a", "b"]);
    expect(read[1]).toMatchObject({ stage: "generate", status: "ok", choices: [{ text: "old", finishReason: "unknown" }] });
    expect(again.unreadableLines.map((l) => l.line)).toEqual([2, 4, 5]);
    expect(again.unreadableLines[0]!.problem).toMatch(/not JSON/);
    expect(again.unreadableLines[2]!.problem).toMatch(/choices/);
    await again.close();
  });
});

describe("run store: one writer at a time", () => {
  it("refuses a second open while the first holds the lock, naming the holder, and frees it on close", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const first = new RunStore(dir);
    await first.open(manifest("f1"));
    const second = new RunStore(dir);
    const err = await second.open(manifest("f1")).catch((e: unknown) => e);
    expect(ConfigError.isInstance(err)).toBe(true);
    expect(String((err as Error).message)).toMatch(new RegExp(`run\\.lock: another yardstick run is writing to this run store \\(pid ${process.pid} on `));
    await first.close();
    expect(existsSync(join(dir, "run.lock"))).toBe(false);
    await second.open(manifest("f1"));
    await second.close();
  });

  it("keeps the lock after finishAppending (a run scores under it) and lets score-run's rewrite lock wait for it", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const run = new RunStore(dir);
    await run.open(manifest("f1"));
    run.append(record("s1"));
    await run.finishAppending();
    expect(await collect(new RunStore(dir))).toHaveLength(1);
    expect(existsSync(join(dir, "run.lock"))).toBe(true);
    const rescore = new RunStore(dir);
    const err = await rescore.lockForRewrite().catch((e: unknown) => e);
    expect(ConfigError.isInstance(err)).toBe(true);
    expect(String((err as Error).message)).toContain("another yardstick run is writing to this run store");
    expect(String((err as Error).message)).toContain("wait for it to finish (if no run is using it, delete run.lock)");
    await run.close();
    expect(existsSync(join(dir, "run.lock"))).toBe(false);
    await rescore.lockForRewrite();
    const next = await new RunStore(dir).open(manifest("f1")).catch((e: unknown) => e);
    expect(String((next as Error).message)).toContain("wait for it to finish or choose another --out");
    await rescore.close();
    expect(existsSync(join(dir, "run.lock"))).toBe(false);
  });

  it("refuses a folder with files of its own and no trace of a store, writing nothing; an empty one or a store without run.json opens", async () => {
    const root = mkdtempSync(join(tmpdir(), "ys-store-"));
    const project = join(root, "project");
    mkdirSync(project);
    writeFileSync(join(project, "results.json"), '{"mine":true}');
    const err = await new RunStore(project).open(manifest("f1")).catch((e: unknown) => e);
    expect(ConfigError.isInstance(err)).toBe(true);
    expect(String((err as Error).message)).toContain("is not empty and holds no run store");
    expect(readdirSync(project)).toEqual(["results.json"]);
    expect(readFileSync(join(project, "results.json"), "utf8")).toBe('{"mine":true}');

    const empty = join(root, "empty");
    mkdirSync(empty);
    const store = new RunStore(empty);
    await store.open(manifest("f1"));
    store.append(record("s1"));
    await store.close();
    rmSync(join(empty, "run.json")); // the manifest deleted by hand: its records still make it a store
    const again = new RunStore(empty);
    await again.open(manifest("f1"));
    expect(await collect(again)).toHaveLength(1);
    await again.close();
  });

  it("takes over a lock left by a process that is gone", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    mkdirSync(dir, { recursive: true });
    // A pid far above any pid_max: no such process.
    writeFileSync(join(dir, "run.lock"), JSON.stringify({ pid: 2 ** 30, host: hostname(), since: "2026-01-01T00:00:00Z" }));
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    expect(JSON.parse(readFileSync(join(dir, "run.lock"), "utf8")).pid).toBe(process.pid);
    await store.close();
  });
});

describe("run store: written()", () => {
  it("resolves only once the queued lines are in the file", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ys-store-")), "run");
    const store = new RunStore(dir);
    await store.open(manifest("f1"));
    store.append(record("a"));
    store.append(record("b"));
    await store.written();
    expect(readFileSync(join(dir, "responses.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
    await store.written(); // nothing queued: resolves at once
    await store.close();
  });
});
