#!/usr/bin/env node
// Runs this example's SEA-HELM suite twice against the local dev server: once as an instruct model
// (chat requests) and once as a base model (completion prompts rendered with
// chat_templates/base_model.jinja, five few-shot examples each). Sentiment is read from parquet
// files served by the Hugging Face stand-in, summarisation through its dataset viewer API, and
// global_mmlu_lite from the local JSONL files its config names. Then the instruct model three times
// with seeds 1234-1236 (--runs 3) and SEA-HELM's leaderboard bootstrap over the runs.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "@yardstick/runner";
import { startDevServer, startHubServer } from "@yardstick/testing";
import { parquetWriteBuffer } from "hyparquet-writer";
import { seaModel } from "./model-policy.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tasks = join(here, "tasks");
const outRoot = process.env.YARDSTICK_EXAMPLE_OUT ?? join(here, "runs");

const readRows = (file) =>
  readFileSync(join(here, "data", file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

/** SEA-HELM rows as one parquet file: id, prompts [{ text }], label, metadata { language }. */
function toParquet(rows) {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: "id", data: rows.map((r) => r.id), type: "STRING" },
        { name: "prompts", data: rows.map((r) => r.prompts) },
        { name: "label", data: rows.map((r) => r.label), type: "STRING" },
        { name: "metadata", data: rows.map((r) => r.metadata) },
      ],
    }),
  );
}

const hub = await startHubServer({
  // Summarisation: rows through the dataset viewer API (the dataset has no parquet conversion here).
  datasets: {
    "aisingapore/NLG-Abstractive-Summarization": { id: { eval: readRows("abssum_id_eval.jsonl"), examples: readRows("abssum_id_examples.jsonl") } },
  },
  // Sentiment: parquet files on the refs/convert/parquet branch, as the Hub converts datasets.
  parquet: {
    "aisingapore/NLU-Sentiment-Analysis": {
      id: { eval: [toParquet(readRows("sentiment_id_eval.jsonl"))], examples: [toParquet(readRows("sentiment_id_examples.jsonl"))] },
    },
  },
});
const server = await startDevServer({ port: 0, policy: seaModel, models: ["sea-rules"] });
const env = {
  ...process.env,
  HF_ENDPOINT: hub.url,
  YARDSTICK_HF_ENDPOINT: hub.url,
  YARDSTICK_CACHE_DIR: process.env.YARDSTICK_CACHE_DIR ?? mkdtempSync(join(tmpdir(), "yardstick-seahelm-example-cache-")),
};
const io = { stdout: process.stdout, stderr: process.stderr, env, cwd: here };

async function run(title, args) {
  process.stdout.write(`\n== ${title} ==\n`);
  const code = await main(["run", tasks, "--suite", "example", "--model", "openai-compatible:sea-rules", "--base-url", `${server.url}/v1`, ...args, "--quiet"], io);
  if (code !== 0) throw new Error(`${title}: yardstick run exited with ${code}`);
}

try {
  await run("instruct model (chat)", ["--out", join(outRoot, "instruct")]);
  await run("base model (completions, base_model.jinja, 5-shot)", ["--base-model", "--out", join(outRoot, "base")]);
  await run("instruct model, 3 runs (seeds 1234, 1235, 1236)", ["--runs", "3", "--out", join(outRoot, "instruct-3-runs"), "--no-report"]);
  process.stdout.write(`\nrun stores: ${outRoot}/{instruct,base} (run.json, results.json, report.html)\n`);
  process.stdout.write(`three runs: ${outRoot}/instruct-3-runs/runs/{0,1,2}, bootstrap over them: ${outRoot}/instruct-3-runs/sea-rules_scores.yaml\n`);
} finally {
  await server.close();
  await hub.close();
}
