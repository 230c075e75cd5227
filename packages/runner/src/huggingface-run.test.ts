import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer, startHubServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// SEA-HELM's own sentiment config, verbatim: its data lives on the Hugging Face Hub.
const tasks = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "seahelm_tasks", "nlu", "sentiment_analysis");

const LABELS = ["Positif", "Negatif", "Netral"];
const rows = Array.from({ length: 130 }, (_, i) => ({
  id: `id-${i}`,
  prompts: [{ text: `kalimat nomor ${i}` }],
  label: LABELS[i % 3],
  metadata: { language: "id" },
}));

describe("a SEA-HELM config whose data is on the Hugging Face Hub", () => {
  it("runs end to end through the dataset viewer API, and a second run reads the Hub cache", async () => {
    const hub = await startHubServer({ datasets: { "aisingapore/NLU-Sentiment-Analysis": { id: { eval: rows, examples: rows.slice(0, 5) } } } });
    const model = await startDevServer({
      port: 0,
      policy: (req) => `Jawaban: ${LABELS[Number(/kalimat nomor (\d+)/.exec(req.lastUserText)?.[1] ?? 0) % 3]}`,
    });
    try {
      const cache = mkdtempSync(join(tmpdir(), "ys-hf-cache-"));
      const env = { YARDSTICK_CACHE_DIR: cache, YARDSTICK_HF_ENDPOINT: hub.url, HF_TOKEN: "hf_secret_token" };
      const out = join(cache, "run");
      const args = ["run", tasks, "--tasks", "sentiment", "--langs", "id", "--model", "openai-compatible:m", "--base-url", `${model.url}/v1`, "--out", out, "--quiet"];
      const io = captureIO(env);
      expect(await main(args, io), io.err()).toBe(0);
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      expect(results.id.nlu.sentiment.n).toBe(130);
      expect(results.id.nlu.sentiment.normalized_accuracy).toBe(100);
      // The token is a credential: it is in no run file.
      for (const f of ["run.json", "responses.jsonl", "results.json"]) expect(readFileSync(join(out, f), "utf8")).not.toContain("hf_secret_token");
      const hubRequests = hub.stats().requests;
      const again = captureIO(env);
      expect(await main([...args.slice(0, -3), "--out", join(cache, "run2"), "--quiet"], again), again.err()).toBe(0);
      expect(hub.stats().requests).toBe(hubRequests);
    } finally {
      await hub.close();
      await model.close();
    }
  });

  it("--skip-unsupported runs a whole config, leaving out (and naming) what cannot run here", async () => {
    const hub = await startHubServer({ datasets: { "aisingapore/NLU-Sentiment-Analysis": { id: { eval: rows.slice(0, 9), examples: [] } } } });
    try {
      const cache = mkdtempSync(join(tmpdir(), "ys-hf-cache-"));
      const io = captureIO({ YARDSTICK_CACHE_DIR: cache, YARDSTICK_HF_ENDPOINT: hub.url });
      const code = await main(["run", tasks, "--langs", "id", "--model", "baseline:majority", "--out", join(cache, "r"), "--skip-unsupported", "--quiet"], io);
      expect(code, io.err()).toBe(0);
      // The logprob twin needs a provider that scores loglikelihoods; the baseline does not.
      expect(io.err()).toMatch(/skipped: \S+config\.yaml sentiment-logprobs: task sentiment-logprobs\/id scores log-probabilities \(loglikelihood\), which the model provider "baseline:majority" cannot/);
      expect(io.out()).toMatch(/sentiment\s+id\s+normalized_accuracy/);
      const strict = captureIO({ YARDSTICK_CACHE_DIR: cache, YARDSTICK_HF_ENDPOINT: hub.url });
      expect(await main(["run", tasks, "--langs", "id", "--model", "baseline:majority", "--out", join(cache, "r2")], strict)).toBe(1);
      expect(strict.err()).toMatch(/--skip-unsupported/);
    } finally {
      await hub.close();
    }
  });
});
