/**
 * `yardstick run` on SEA-HELM's sentiment config with its data on the Hub as parquet files: the
 * Hub endpoint comes from HF_ENDPOINT (as huggingface_hub reads it), the dataset commit is in the
 * run's fingerprint, and a second run reads the cached parquet files without any request.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer, startHubServer } from "@yardstick/testing";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterEach, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const tasks = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "seahelm_tasks", "nlu", "sentiment_analysis");
const REPO = "aisingapore/NLU-Sentiment-Analysis";
const SHA = "c".repeat(40);
const LABELS = ["Positif", "Negatif", "Netral"];

/** SEA-HELM rows as parquet: `id`, `prompts: [{ text }]`, `label`, `metadata: { language }`, in row groups of 10. */
function sentimentParquet(n: number): Uint8Array {
  const ids = Array.from({ length: n }, (_, i) => i);
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: "id", data: ids.map((i) => `id-${i}`), type: "STRING" },
        { name: "prompts", data: ids.map((i) => [{ text: `kalimat nomor ${i}` }]) },
        { name: "label", data: ids.map((i) => LABELS[i % 3]!), type: "STRING" },
        { name: "metadata", data: ids.map(() => ({ language: "id" })) },
      ],
      rowGroupSize: 10,
    }),
  );
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("a SEA-HELM task whose data is parquet on the Hugging Face Hub", () => {
  it("runs end to end with HF_ENDPOINT, records the dataset commit, and re-runs from the cache", async () => {
    const hub = await startHubServer({
      datasets: {},
      revisions: { [REPO]: SHA },
      token: "hf_secret_token",
      parquet: { [REPO]: { id: { eval: [sentimentParquet(25)], examples: [sentimentParquet(5)] } } },
    });
    const model = await startDevServer({
      port: 0,
      policy: (req) => `Jawaban: ${LABELS[Number(/kalimat nomor (\d+)/.exec(req.lastUserText)?.[1] ?? 0) % 3]}`,
    });
    const cache = mkdtempSync(join(tmpdir(), "ys-hf-parquet-"));
    cleanups.push(() => hub.close(), () => model.close(), () => rmSync(cache, { recursive: true, force: true }));
    const env = { YARDSTICK_CACHE_DIR: cache, HF_ENDPOINT: hub.url, HF_TOKEN: "hf_secret_token" };
    const out = join(cache, "run");
    const args = ["run", tasks, "--tasks", "sentiment", "--langs", "id", "--model", "openai-compatible:m", "--base-url", `${model.url}/v1`];
    const io = captureIO(env);
    expect(await main([...args, "--out", out, "--quiet"], io), io.err()).toBe(0);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.id.nlu.sentiment.n).toBe(25);
    expect(results.id.nlu.sentiment.normalized_accuracy).toBe(100);
    const runJson = readFileSync(join(out, "run.json"), "utf8");
    expect(runJson).toContain(`hf:${REPO}@${SHA}`);
    expect(runJson).not.toContain("hf_secret_token");
    const stats = hub.stats();
    expect(stats.downloads).toBeGreaterThan(0);
    expect(stats.rows + stats.splits).toBe(0);
    expect(stats.log.every((l) => l.authorized)).toBe(true);

    hub.resetStats();
    const again = captureIO(env);
    expect(await main([...args, "--out", join(cache, "run2"), "--quiet"], again), again.err()).toBe(0);
    expect(hub.stats().requests).toBe(0);
  });
});
