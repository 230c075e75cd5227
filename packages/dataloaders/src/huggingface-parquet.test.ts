/** The parquet path of the `huggingface` dataloader, against the Hub stand-in serving parquet files these tests write. */
import { readdirSync } from "node:fs";
import * as path from "node:path";
import type { Sample } from "@yardstick/core";
import { parquetMetadata } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { fingerprintHuggingFace, loadHuggingFace } from "./huggingface.js";
import { FAST, hub, loaders, tempDir } from "./hub.test-helper.js";

const REPO = "aisingapore/parquet-set";
const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);

/** A parquet file of SEA-HELM rows (`id`, `prompts: [{ text }]`, `label`), `rowGroupSize` rows a row group. */
function seahelmParquet(n: number, prefix = "q", rowGroupSize = 1000): Uint8Array {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: "id", data: ids, type: "STRING" },
        { name: "prompts", data: ids.map((_, i) => [{ text: `question ${i}` }]) },
        { name: "label", data: ids.map((_, i) => (i % 2 === 0 ? "A" : "B")), type: "STRING" },
      ],
      rowGroupSize,
    }),
  );
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const { collect, loadError } = loaders();

describe("huggingface dataloader, parquet files", () => {
  it("reads the split's shards from the parquet branch at its commit, rows in order, without the viewer", async () => {
    const server = await hub({ datasets: {}, parquet: { [REPO]: { id: { test: [seahelmParquet(3, "a"), seahelmParquet(2, "b")] } } } });
    const samples = await collect({ repo: REPO, name: "id", split: "test", endpoint: server.url });
    expect(samples.map((s) => s.id)).toEqual(["a0", "a1", "a2", "b0", "b1"]);
    expect(samples[1]).toMatchObject({ prompts: [{ text: "question 1" }], label: "B" });
    const stats = server.stats();
    expect(stats.rows + stats.splits).toBe(0);
    expect(stats.downloads).toBe(2);
    // Files are fetched at the branch's commit, not by the moving ref name.
    const downloads = stats.log.filter((l) => l.path.includes("/resolve/"));
    expect(downloads.every((l) => /\/resolve\/[0-9a-f]{40}\/id\/test\/000[01]\.parquet$/.test(l.path))).toBe(true);
  });

  it("streams row groups: rows of the first groups come out before a later group is decoded", async () => {
    const file = seahelmParquet(12, "q", 4);
    const metadata = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
    expect(metadata.row_groups).toHaveLength(3);
    // Garbage in the third row group's first data page: reading it fails, reading before it does not.
    const third = Number(metadata.row_groups[2]!.columns[0]!.meta_data!.data_page_offset);
    const damaged = file.slice();
    damaged.fill(0xff, third, third + 8);
    const server = await hub({ datasets: {}, parquet: { [REPO]: { id: { test: [damaged] } } } });
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const s of loadHuggingFace({ repo: REPO, name: "id", split: "test", endpoint: server.url }, {}, FAST)) seen.push(s.id);
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual(["q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7"]);
    expect(error).toBeDefined();
    // `limit` inside the first group never touches the damaged one.
    expect((await collect({ repo: REPO, name: "id", split: "test", endpoint: server.url, limit: 3 })).map((s) => s.id)).toEqual(["q0", "q1", "q2"]);
  });

  it("pins the dataset revision: the cache is keyed by the commit, which the fingerprint records", async () => {
    const cacheDir = tempDir();
    const first = await hub({ datasets: {}, revisions: { [REPO]: SHA_A }, parquet: { [REPO]: { id: { test: [seahelmParquet(2, "old")] } } } });
    const options = { repo: REPO, name: "id", split: "test", endpoint: first.url, cacheDir };
    expect(await fingerprintHuggingFace(options, {}, FAST)).toBe(`hf:${REPO}@${SHA_A}`);
    expect((await collect(options)).map((s) => s.id)).toEqual(["old0", "old1"]);
    expect(filesUnder(cacheDir).some((f) => f.includes(SHA_A) && f.endsWith("0000.parquet"))).toBe(true);
    await first.close();

    // A new commit on the Hub.
    const second = await hub({ datasets: {}, revisions: { [REPO]: SHA_B }, parquet: { [REPO]: { id: { test: [seahelmParquet(3, "new")] } } } });
    const pinnedA = { ...options, endpoint: second.url, revision: SHA_A };
    expect((await collect(pinnedA)).map((s) => s.id)).toEqual(["old0", "old1"]);
    expect(second.stats().requests).toBe(0);
    // "main" stays on the commit this cache recorded (the fingerprint's), until its folder is deleted.
    expect((await collect({ ...options, endpoint: second.url })).map((s) => s.id)).toEqual(["old0", "old1"]);
    expect((await collect({ ...options, endpoint: second.url, revision: SHA_B })).map((s) => s.id)).toEqual(["new0", "new1", "new2"]);
    // A pinned commit that is neither cached nor the one the Hub's parquet files are of.
    const err = await loadError({ ...pinnedA, cacheDir: tempDir() });
    expect(err.message).toContain(`latest commit ${SHA_B}, not of ${SHA_A}`);
  });

  it("resumes an interrupted download with a range request", async () => {
    const file = seahelmParquet(50, "r");
    const cacheDir = tempDir();
    const server = await hub({
      datasets: {},
      parquet: { [REPO]: { id: { test: [file] } } },
      faults: [{ kind: "cut", bytes: 100, path: `/datasets/${REPO}/resolve/` }],
    });
    const samples = await collect({ repo: REPO, name: "id", split: "test", endpoint: server.url, cacheDir });
    expect(samples).toHaveLength(50);
    const downloads = server.stats().log.filter((l) => l.path.includes("/resolve/"));
    expect(downloads.map((l) => l.range)).toEqual([undefined, "bytes=100-"]);
    expect(filesUnder(cacheDir).filter((f) => f.endsWith(".partial"))).toEqual([]);
  });

  it("refuses a file that is not parquet, or is truncated, and caches neither", async () => {
    const whole = seahelmParquet(20);
    for (const [bad, why] of [
      [new TextEncoder().encode("<html>not a parquet file</html>"), /not a readable parquet file: no PAR1 magic/],
      [whole.slice(0, Math.floor(whole.length / 2)), /not a readable parquet file/],
    ] as const) {
      const cacheDir = tempDir();
      const server = await hub({ datasets: {}, revisions: { [REPO]: SHA_A }, parquet: { [REPO]: { id: { test: [bad] } } } });
      const err = await loadError({ repo: REPO, name: "id", split: "test", endpoint: server.url, cacheDir });
      expect(err.message).toMatch(why);
      expect(err.message).toContain("id/test/0000.parquet");
      expect(err.message).toContain("it was not cached");
      expect(filesUnder(cacheDir).filter((f) => f.includes(".parquet"))).toEqual([]);
    }
  });

  it("names what exists for a missing config or split", async () => {
    const server = await hub({ datasets: {}, parquet: { [REPO]: { id: { test: [seahelmParquet(1)], examples: [seahelmParquet(1)] }, th: { test: [seahelmParquet(1)] } } } });
    const noSplit = await loadError({ repo: REPO, name: "th", split: "examples", endpoint: server.url });
    expect(noSplit.message).toContain(`hf://datasets/${REPO}`);
    expect(noSplit.message).toContain('split "examples" not found in config "th"; it has: test (whole dataset: id (test, examples); th (test))');
    const noConfig = await loadError({ repo: REPO, name: "vi", split: "test", endpoint: server.url });
    expect(noConfig.message).toContain('config "vi" not found; the dataset has: id (test, examples); th (test)');
  });

  it("says what is wrong for an unknown dataset and for several configs without a name", async () => {
    const server = await hub({ datasets: {}, parquet: { [REPO]: { id: { test: [seahelmParquet(1)] }, th: { test: [seahelmParquet(1)] } } } });
    const unknown = await loadError({ repo: "aisingapore/nope", name: "id", split: "test", endpoint: server.url });
    expect(unknown.message).toMatch(/hf:\/\/datasets\/aisingapore\/nope: .*private or gated, or does not exist; set HF_TOKEN/);
    await expect(collect({ repo: REPO, split: "test", endpoint: server.url })).rejects.toThrow(/several configs; choose one with "name": id \(test\); th \(test\)/);
  });

  it("falls back to the dataset viewer when the dataset has no parquet conversion", async () => {
    const logs: string[] = [];
    const rows = [{ id: "v0", prompts: [{ text: "hi" }], label: "A" }];
    const server = await hub({ datasets: { [REPO]: { id: { test: rows } } } });
    const out: Sample[] = [];
    for await (const s of loadHuggingFace({ repo: REPO, name: "id", split: "test", endpoint: server.url }, { log: (m) => logs.push(m) }, FAST)) out.push(s);
    expect(out.map((s) => s.id)).toEqual(["v0"]);
    expect(server.stats().rows).toBe(1);
    expect(logs.join("\n")).toContain("no parquet conversion");
    const err = await loadError({ repo: REPO, name: "id", split: "test", endpoint: server.url, source: "parquet" });
    expect(err.message).toContain("no parquet conversion");
  });
});
