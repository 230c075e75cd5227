/**
 * `--num-fewshot` on UltraEval tasks: the corpus mmlu config (5-shot) run over the corpus's synthetic
 * mmlu rows with `--num-fewshot 2` and `0` sends exactly the prompts of upstream's
 * `construct_input` under `random.Random(1234)` (golden_prompts.jsonl), and the same prompts on
 * every run.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/ultraeval/${name}`, import.meta.url));

const goldenSchema = z.object({ fewshot: z.number(), prompt: z.object({ input: z.string() }) });
const golden = readFileSync(fixture("golden_prompts_mmlu.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => goldenSchema.parse(JSON.parse(l)));
const goldenInputs = (k: number) => golden.filter((g) => g.fewshot === k).map((g) => g.prompt.input);

const recordSchema = z.object({ sample: z.string(), request: z.object({ prompt: z.string() }).optional() });
/** The prompts sent, in sample order (the sample ids are the row positions). */
function sentPrompts(out: string): string[] {
  const records = readFileSync(join(out, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => recordSchema.parse(JSON.parse(l)))
    .filter((r) => r.request !== undefined);
  return records.sort((a, b) => a.sample.localeCompare(b.sample, undefined, { numeric: true })).map((r) => r.request!.prompt);
}

let server: DevServer;
let root: string;

beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: { fixed: "(B)" }, models: ["m"] });
  root = mkdtempSync(join(tmpdir(), "yardstick-ultraeval-fewshot-"));
  mkdirSync(join(root, "datasets", "mmlu", "config"), { recursive: true });
  mkdirSync(join(root, "datasets", "mmlu", "data"), { recursive: true });
  copyFileSync(fixture("abstract-algebra_gen.json"), join(root, "datasets", "mmlu", "config", "abstract-algebra_gen.json"));
  copyFileSync(fixture("synthetic_mmlu.jsonl"), join(root, "datasets", "mmlu", "data", "abstract-algebra.jsonl"));
});
afterAll(async () => {
  await server.close();
});

async function run(out: string, extra: string[]): Promise<void> {
  const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
  const args = ["run", join(root, "datasets"), "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", out, "--quiet", "--no-report"];
  expect(await main([...args, ...extra], io), io.err()).toBe(0);
}

describe("yardstick run --num-fewshot on UltraEval tasks", () => {
  it("overrides the config's count; the seeded draw gives upstream's prompts (random.Random(1234)) on every run", async () => {
    const two = join(root, "two");
    await run(two, ["--num-fewshot", "2"]);
    expect(sentPrompts(two)).toEqual(goldenInputs(2));
    const again = join(root, "two-again");
    await run(again, ["--num-fewshot", "2"]);
    expect(sentPrompts(again)).toEqual(sentPrompts(two));

    const zero = join(root, "zero");
    await run(zero, ["--num-fewshot", "0"]);
    expect(sentPrompts(zero)).toEqual(goldenInputs(0));
    const fingerprint = (dir: string) => (JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as { fingerprint: string }).fingerprint;
    expect(fingerprint(zero)).not.toBe(fingerprint(two));
  });

  it("--seed seeds the draw: another seed, other examples; the same seed, the same prompts", async () => {
    const seven = join(root, "seed-7");
    await run(seven, ["--num-fewshot", "2", "--seed", "7"]);
    const again = join(root, "seed-7-again");
    await run(again, ["--num-fewshot", "2", "--seed", "7"]);
    expect(sentPrompts(again)).toEqual(sentPrompts(seven));
    expect(sentPrompts(seven)).not.toEqual(goldenInputs(2));
    // Still two examples before each record, from the same file.
    for (const prompt of sentPrompts(seven)) expect(prompt.split("Question:\n")).toHaveLength(4);
  });

  it("a count the file cannot supply (the examples come from the same file) is a clear error naming the task", async () => {
    const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
    const args = ["run", join(root, "datasets"), "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", join(root, "five"), "--quiet", "--no-report"];
    expect(await main(args, io)).not.toBe(0);
    expect(io.err()).toContain("mmlu_abstract-algebra_gen");
    expect(io.err()).toContain("5-shot needs at least 6 rows");
    expect(io.err()).not.toMatch(/\n\s+at /);
  });
});
