/**
 * SEA-HELM's English IFEval config (english_evals/ifeval, verbatim) run end to end: its data,
 * google/IFEval, comes from the Hub stand-in in google's row shape, and its metric (ifeval:en) is
 * found in @yardstick/metric-ifeval by the metric's namespace without --plugin.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer, startHubServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "seahelm_ifeval_en");
/** Four google/IFEval rows (key, prompt, instruction_id_list, kwargs) and the answer the model gives each. */
const ROWS = JSON.parse(readFileSync(join(FIXTURE, "google-ifeval-rows.json"), "utf8")) as { row: { prompt: string }; response: string }[];

describe("SEA-HELM's English IFEval config", () => {
  it("runs on google/IFEval rows and reports normalized_prompt_level_strict_acc", async () => {
    const hub = await startHubServer({ datasets: { "google/IFEval": { default: { train: ROWS.map((r) => r.row) } } } });
    const model = await startDevServer({
      port: 0,
      policy: (req) => ROWS.find((r) => r.row.prompt === req.lastUserText)?.response ?? "unexpected prompt",
    });
    try {
      const cache = mkdtempSync(join(tmpdir(), "ys-ifeval-en-"));
      const out = join(cache, "run");
      const io = captureIO({ YARDSTICK_CACHE_DIR: cache, YARDSTICK_HF_ENDPOINT: hub.url });
      const args = ["run", join(FIXTURE, "seahelm_tasks"), "--model", "openai-compatible:toy", "--base-url", `${model.url}/v1`, "--out", out, "--no-report"];
      expect(await main(args, io), io.err()).toBe(0);
      const task = JSON.parse(readFileSync(join(out, "results.json"), "utf8")).en.english_instruction_following.ifeval;
      expect(task.n).toBe(4);
      // Only the first row follows all its instructions as written (see metric-ifeval's english-metric.test.ts).
      expect(task.normalized_prompt_level_strict_acc).toBe(25);
      expect(task.prompt_level_loose_acc).toBe(0.75);
      expect(io.out()).toMatch(/ifeval\s+en\s+normalized_prompt_level_strict_acc\s+25\.00/);
    } finally {
      await hub.close();
      await model.close();
    }
  });
});
