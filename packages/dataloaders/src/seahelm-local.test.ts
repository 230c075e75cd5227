import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, DataLoadError, type Sample } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { builtinDataloaders } from "./index.js";
import { loadSeahelmLocal, loadSeahelmLocalBatches } from "./seahelm-local.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));

async function collect(options: Record<string, unknown>, baseDir?: string): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of loadSeahelmLocal(options, baseDir === undefined ? {} : { baseDir })) out.push(s);
  return out;
}

async function loadError(options: Record<string, unknown>, baseDir?: string): Promise<DataLoadError> {
  try {
    await collect(options, baseDir);
  } catch (e) {
    if (DataLoadError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("expected a DataLoadError");
}

function tempFiles(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-dl-"));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const row = (id: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ id, prompts: [{ text: `t${String(id)}` }], label: "A", ...extra });

describe("seahelm-local", () => {
  it("streams the corpus global_mmlu_lite sample into Samples", async () => {
    const samples = await collect({ path: "global_mmlu_lite_id_test.jsonl" }, FIXTURES);
    expect(samples).toHaveLength(20);
    const first = samples[0]!;
    expect(first.id).toBe("0");
    expect(first.label).toBe("B");
    expect(first.prompts[0]).toMatchObject({ option_b: "Lebih tinggi di langit", subject: "astronomy" });
    expect(first.metadata).toMatchObject({ subject: "astronomy", sample_id: "astronomy/test/58" });
    const line1 = JSON.parse(readFileSync(path.join(FIXTURES, "global_mmlu_lite_id_test.jsonl"), "utf8").split("\n")[0]!);
    expect(first.raw).toEqual(line1);
  });

  it("keeps string ids and list labels (novel-qa)", async () => {
    const samples = await collect({ path: path.join(FIXTURES, "zh_BiPaR_sample.jsonl") });
    expect(samples[0]?.id).toBe("chinese-TEST_lu_ding_ji_823_QUERY_0_ZH");
    expect(Array.isArray(samples[0]?.label)).toBe(true);
  });

  it("safeguard rows: index ids and a renamed label column", async () => {
    const samples = await collect({ path: "id_general.jsonl", labelField: "prompt_label" }, FIXTURES);
    expect(samples.map((s) => s.id).slice(0, 3)).toEqual(["0", "1", "2"]);
    expect(samples[0]?.label).toBe("Berbahaya");
    const err = await loadError({ path: "id_general.jsonl", idFallback: "error" }, FIXTURES);
    expect(err.message).toBe(`${path.join(FIXTURES, "id_general.jsonl")}:1: row has neither "id" nor "question_id"`);
  });

  it("uses question_id, skips blank lines, stops at limit, reads .json arrays", async () => {
    const dir = tempFiles({
      "a.jsonl": `${JSON.stringify({ question_id: 7, prompts: [{}] })}\n\n${row(8)}\n${row(9)}\n`,
      "b.json": `[\n  ${row(1)},\n  ${row(2)}\n]\n`,
    });
    expect((await collect({ path: "a.jsonl" }, dir)).map((s) => s.id)).toEqual(["7", "8", "9"]);
    expect((await collect({ path: "a.jsonl", limit: 2 }, dir)).map((s) => s.id)).toEqual(["7", "8"]);
    expect((await collect({ path: "b.json" }, dir)).map((s) => s.id)).toEqual(["1", "2"]);
  });

  it("reads no line past the limit, and gives the same samples in batches", async () => {
    const dir = tempFiles({ "tail.jsonl": `${row(1)}\n${row(2)}\n{"id": 3, "prompts": [\n${row(4)}\n` });
    expect((await collect({ path: "tail.jsonl", limit: 2 }, dir)).map((s) => s.id)).toEqual(["1", "2"]);
    const batches: string[][] = [];
    for await (const batch of loadSeahelmLocalBatches({ path: "tail.jsonl", limit: 2 }, { baseDir: dir })) batches.push(batch.map((s) => s.id));
    expect(batches).toEqual([["1", "2"]]);
    expect((await loadError({ path: "tail.jsonl" }, dir)).message).toMatch(/tail\.jsonl:3: invalid JSON/);
  });

  it("reports bad JSON, bad rows and duplicate ids with file:line", async () => {
    const dir = tempFiles({
      "badjson.jsonl": `${row(1)}\n{"id": 2, "prompts": [\n`,
      "badrow.jsonl": `${row(1)}\n${row(2)}\n${JSON.stringify({ id: 3, prompts: "not a list" })}\n`,
      "dup.jsonl": `${row(1)}\n${row(2)}\n${row(1)}\n`,
      "badarray.json": `[\n  ${row(1)},\n  ${JSON.stringify({ id: 2 })}\n]`,
      "notarray.json": `{"rows": []}`,
    });
    const file = (n: string) => path.join(dir, n);
    const badJson = await loadError({ path: "badjson.jsonl" }, dir);
    expect(badJson.file).toBe(file("badjson.jsonl"));
    expect(badJson.line).toBe(2);
    expect(badJson.message).toMatch(/:2: invalid JSON/);
    const badRow = await loadError({ path: "badrow.jsonl" }, dir);
    expect(badRow.line).toBe(3);
    expect(badRow.message).toContain("bad row: prompts:");
    const dup = await loadError({ path: "dup.jsonl" }, dir);
    expect(dup.message).toBe(`${file("dup.jsonl")}:3: duplicate id "1" (first seen on line 1)`);
    const badArray = await loadError({ path: "badarray.json" }, dir);
    expect(badArray.line).toBe(3);
    expect((await loadError({ path: "notarray.json" }, dir)).message).toContain("must hold an array");
  });

  it("streams: rows before a bad line are yielded before the error, and breaking early is clean", async () => {
    const dir = tempFiles({ "late.jsonl": `${row(1)}\n${row(2)}\nnot json\n` });
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const s of loadSeahelmLocal({ path: "late.jsonl" }, { baseDir: dir })) seen.push(s.id);
    } catch (e) {
      caught = e;
    }
    expect(seen).toEqual(["1", "2"]);
    expect(DataLoadError.isInstance(caught) && caught.line).toBe(3);
    for await (const s of loadSeahelmLocal({ path: "late.jsonl" }, { baseDir: dir })) {
      expect(s.id).toBe("1");
      break;
    }
  });

  it("names the path of a missing file and rejects bad options", async () => {
    const err = await loadError({ path: "nope/missing.jsonl" }, "/tmp");
    expect(err.message).toBe("/tmp/nope/missing.jsonl: data file not found: /tmp/nope/missing.jsonl");
    await expect(collect({ path: 3 })).rejects.toSatisfy((e: unknown) => ConfigError.isInstance(e));
    const dir = tempFiles({ "x.csv": "a,b\n" });
    expect((await loadError({ path: "x.csv" }, dir)).message).toContain("unsupported data file type");
  });

  it("inlines image files as data URIs and keeps data URIs and URLs", async () => {
    const png = readFileSync(path.join(FIXTURES, "images/red.png"));
    const svg = readFileSync(path.join(FIXTURES, "images/dot.svg"));
    const uri = "data:image/jpeg;base64,/9j/4AAQ";
    const dir = tempFiles({
      "data/rows.jsonl": `${row(1, { image: "../img/red.png" })}\n${row(2, { images: [uri, "../img/dot.svg", "https://example.org/x.png"] })}\n`,
      "img/red.png": png,
      "img/dot.svg": svg,
      "data/bad.jsonl": `${row(1, { image: "missing.png" })}\n`,
      "data/badtype.jsonl": `${row(1, { image: "file.tiff" })}\n`,
    });
    const [a, b] = await collect({ path: "data/rows.jsonl" }, dir);
    expect(a?.raw.image).toBe(`data:image/png;base64,${png.toString("base64")}`);
    expect(b?.raw.images).toEqual([uri, `data:image/svg+xml;base64,${svg.toString("base64")}`, "https://example.org/x.png"]);
    const missing = await loadError({ path: "data/bad.jsonl" }, dir);
    expect(missing.message).toContain(`image file not found: ${path.join(dir, "data/missing.png")}`);
    expect(missing.line).toBe(1);
    expect((await loadError({ path: "data/badtype.jsonl" }, dir)).message).toContain('unsupported image type ".tiff"');
  });

  it("is registered as seahelm-local, beside huggingface and SEA-HELM's HealthBench, AA-LCR, LiveCodeBench, NIAH and CWE loaders", () => {
    expect(builtinDataloaders["seahelm-local"]?.id).toBe("seahelm-local");
    expect(Object.keys(builtinDataloaders)).toEqual(["seahelm-local", "huggingface", "seahelm-healthbench", "seahelm-aa-lcr", "seahelm-livecodebench", "seahelm-niah", "seahelm-cwe"]);
  });
});
