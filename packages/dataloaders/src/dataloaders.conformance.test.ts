/** The built-in dataloaders run the dataloader conformance suite of @yardstick/testing. */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { type HubDatasets, type HubParquetFiles, type HubServer, startHubServer, testDataloader } from "@yardstick/testing";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll } from "vitest";
import { createHuggingFaceDataloader } from "./huggingface.js";
import { createSeahelmLocalDataloader } from "./seahelm-local.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "yardstick-loader-conformance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A private copy of a fixture, so changing its data for the fingerprint check touches nothing shared. */
function copy(name: string): string {
  const file = path.join(dir, name);
  copyFileSync(path.join(FIXTURES, name), file);
  return file;
}

const mmlu = copy("global_mmlu_lite_id_test.jsonl");
const general = copy("id_general.jsonl");
const row = (i: number) => JSON.stringify({ id: `extra-${i}`, prompts: [{ text: `question ${i}` }], label: "A" });

testDataloader("seahelm-local", createSeahelmLocalDataloader, {
  cases: [
    {
      name: "global MMLU lite (ids in the rows)",
      options: { path: mmlu },
      expectedCount: 20,
      changeData: async () => void writeFileSync(mmlu, `${row(1)}\n`, { flag: "a" }),
    },
    {
      name: "id_general (ids from the row index), relative to baseDir",
      options: { path: path.basename(general), labelField: "response_label" },
      ctx: { baseDir: dir },
      expectedCount: 20,
      changeData: async () => void writeFileSync(general, `${row(2)}\n`, { flag: "a" }),
    },
    {
      name: "limit",
      options: { path: copy("zh_BiPaR_sample.jsonl"), limit: 5 },
      expectedCount: 5,
      // A change within the first five rows: the data the task reads.
      changeData: async () => void writeFileSync(path.join(dir, "zh_BiPaR_sample.jsonl"), `${row(3)}\n`),
    },
  ],
  invalidOptions: [{}, { path: 3 }, { path: mmlu, limit: 0 }, { path: mmlu, idFallback: "guess" }, { path: path.join(dir, "missing.jsonl") }],
});

const REPO = "aisingapore/conformance-set";
const makeRows = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, prompts: [{ text: `question ${i}` }], label: i % 2 === 0 ? "A" : "B" }));
// The stand-in reads both objects on every request, so changing them is a new commit of the dataset.
const datasets: HubDatasets = { [REPO]: { id: { test: makeRows(150, "q") } } };
const PARQUET_REPO = "aisingapore/conformance-parquet";
/** SEA-HELM rows as a parquet file, 8 rows a row group. */
const parquetOf = (n: number, prefix: string): Uint8Array => {
  const rows = makeRows(n, prefix);
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: "id", data: rows.map((r) => r.id), type: "STRING" },
        { name: "prompts", data: rows.map((r) => r.prompts) },
        { name: "label", data: rows.map((r) => r.label), type: "STRING" },
      ],
      rowGroupSize: 8,
    }),
  );
};
const parquet: HubParquetFiles = { [PARQUET_REPO]: { id: { test: [parquetOf(20, "p"), parquetOf(10, "s")] } } };
const revisions: Record<string, string> = { [REPO]: "a".repeat(40), [PARQUET_REPO]: "c".repeat(40) };
const parquetCache = mkdtempSync(path.join(tmpdir(), "yardstick-parquet-conformance-"));
afterAll(() => rmSync(parquetCache, { recursive: true, force: true }));
let hub: HubServer;
beforeAll(async () => {
  hub = await startHubServer({ datasets, revisions, parquet });
});
afterAll(async () => {
  await hub?.close();
});

const hfOptions = () => ({ repo: REPO, name: "id", split: "test", endpoint: hub.url });
testDataloader("huggingface", () => createHuggingFaceDataloader({ retries: 1, backoffBaseMs: 1, backoffMaxMs: 5 }), {
  cases: [
    {
      name: "two pages from the dataset viewer",
      get options() {
        return hfOptions();
      },
      expectedCount: 150,
      changeData: async () => {
        datasets[REPO]!.id!.test = makeRows(151, "r");
        revisions[REPO] = "b".repeat(40);
        return undefined;
      },
    },
    {
      name: "two parquet shards of several row groups, cached",
      get options() {
        return { repo: PARQUET_REPO, name: "id", split: "test", endpoint: hub.url, cacheDir: parquetCache };
      },
      expectedCount: 30,
      // A new commit on the Hub: pinned, it is read (and fingerprinted) as a new dataset version.
      changeData: async () => {
        parquet[PARQUET_REPO]!.id!.test = [parquetOf(31, "n")];
        revisions[PARQUET_REPO] = "d".repeat(40);
        return { repo: PARQUET_REPO, name: "id", split: "test", endpoint: hub.url, cacheDir: parquetCache, revision: "d".repeat(40) };
      },
    },
  ],
  // Refused before any request; the endpoint (the discard port) keeps a regression off the internet.
  invalidOptions: [
    { repo: "not a repo!", split: "test", endpoint: "http://127.0.0.1:9" },
    { repo: REPO, endpoint: "http://127.0.0.1:9" },
    { repo: REPO, split: "test", revision: "v1.0", endpoint: "http://127.0.0.1:9" },
    { repo: REPO, split: "test", source: "files", endpoint: "http://127.0.0.1:9" },
    { repo: REPO, split: "test", rowFormat: "mmmu", endpoint: "http://127.0.0.1:9" },
  ],
});
