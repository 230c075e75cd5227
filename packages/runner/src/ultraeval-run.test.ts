/**
 * UltraEval configs end to end through `yardstick run` against the dev server's /v1/completions: an
 * mmlu-style gen task (raw prompts, few-shot, prefix_match) and a hellaswag-style ppl task
 * (general_torch_ppl_norm + log_prob), with data written here in UltraEval's layout. The ppl choice
 * is checked against one computed by hand from logprobs the test asks the dev server for itself.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

interface McRow {
  question: string;
  options: string[];
  gold: number;
  /** What the served "model" answers: right for some rows, wrong for others. */
  answer: string;
}

const MMLU: McRow[] = [
  { question: "What is 2 + 3?", options: ["4", "5", "6", "7"], gold: 1, answer: "(B) 5" },
  { question: "What is 3 * 3?", options: ["9", "6", "12", "3"], gold: 0, answer: "(A)" },
  { question: "What is 10 - 4?", options: ["5", "7", "6", "4"], gold: 2, answer: "(B) 7" },
  { question: "What is 8 / 2?", options: ["2", "3", "16", "4"], gold: 3, answer: " (D) 4" },
  { question: "What is 1 + 1?", options: ["2", "11", "1", "0"], gold: 0, answer: "The answer is (A)" },
];

interface PplRow {
  activity: string;
  ctx: string;
  endings: string[];
  gold: number;
}

// Endings of different lengths, so the per-token ranking and the summed ranking can disagree.
const HELLASWAG: PplRow[] = [
  { activity: "Baking cookies", ctx: "A woman puts dough on a tray. She", endings: ["puts the tray in the warm oven.", "sings.", "paints the dough blue."], gold: 0 },
  { activity: "Washing a car", ctx: "A man sprays the car with water. He", endings: ["scrubs the car with soap.", "flies.", "eats the hose slowly."], gold: 0 },
  { activity: "Playing guitar", ctx: "A boy holds a guitar. He", endings: ["strums.", "strums the strings and sings a song.", "throws it in the lake."], gold: 1 },
  { activity: "Mowing the lawn", ctx: "A man starts the mower. He", endings: ["pushes the mower across the lawn.", "naps.", "paints the mower red."], gold: 0 },
];

/** Words the served model finds likely (the dev server gives their tokens high logprobs). */
const LIKELY = "tray oven car soap strums guitar mower lawn sings naps flies";

/**
 * A row's JSON with `target_scores` written in option order: a JS object would move integer-like keys
 * ("9", "12") to the front, as upstream's data has them (the dataloader reads the file's order).
 */
function rowJson(fields: Record<string, string>, options: string[], gold: number): string {
  const scores = options.map((o, i) => `${JSON.stringify(o)}: ${i === gold ? 1 : 0}`).join(", ");
  return `${JSON.stringify(fields).slice(0, -1)}, "target_scores": {${scores}}}`;
}

function writeUltraEvalFolder(): string {
  const root = mkdtempSync(join(tmpdir(), "yardstick-ultraeval-"));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const jsonl = (rows: string[]) => `${rows.join("\n")}\n`;
  write(
    "datasets/mmlu/config/arithmetic_gen.json",
    JSON.stringify({
      task_name: "arithmetic",
      path: "datasets/mmlu/data/arithmetic.jsonl",
      description: "The following are multiple choice questions (with answers) about arithmetic.\n\n",
      transform: "datasets/mmlu/transform_gen_v1.py",
      fewshot: 1,
      generate: { method: "generate", params: "" },
      postprocess: "",
      metric: { accuracy: { evaluation: { type: "prefix_match" } } },
    }),
  );
  write(
    "datasets/mmlu/data/arithmetic.jsonl",
    jsonl(MMLU.map((r) => rowJson({ passage: "", question: r.question, answer: "" }, r.options, r.gold))),
  );
  write(
    "datasets/hellaswag/config/activities_ppl.json",
    JSON.stringify({
      task_name: "activities",
      path: "datasets/hellaswag/data/activities.jsonl",
      description: "",
      transform: "datasets/hellaswag/transform_ppl_v1.py",
      fewshot: 0,
      generate: { method: "loglikelihood", params: "" },
      postprocess: "general_torch_ppl_norm",
      metric: { accuracy: { evaluation: { type: "log_prob" } } },
    }),
  );
  write(
    "datasets/hellaswag/data/activities.jsonl",
    jsonl(HELLASWAG.map((r) => rowJson({ passage: "", activity_label: r.activity, question: r.ctx, answer: "" }, r.endings, r.gold))),
  );
  return root;
}

/** The served model: gen prompts get the row's scripted answer; loglikelihood prompts make LIKELY's words likely. */
function policy(req: { prompt?: string; body: Record<string, unknown> }): string {
  if (req.body.echo === true) return LIKELY;
  const last = (req.prompt ?? "").split("Question:\n").at(-1) ?? "";
  const row = MMLU.find((r) => last.startsWith(`${r.question}\n`));
  return row?.answer ?? "";
}

const echoedSchema = z.object({
  choices: z.array(
    z.object({ logprobs: z.object({ tokens: z.array(z.string()), token_logprobs: z.array(z.number().nullable()), text_offset: z.array(z.number()) }) }),
  ),
});

/**
 * By hand, from the server: the continuation's tokens are those that end past the context (a token
 * straddling the boundary carries continuation text); their mean logprob is general_torch_ppl_norm's
 * per-token score with the sign flipped.
 */
async function continuationScore(server: DevServer, context: string, continuation: string): Promise<{ sum: number; count: number }> {
  const res = await fetch(`${server.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "ue-model", prompt: context + continuation, echo: true, logprobs: 1, max_tokens: 0 }),
  });
  const lp = echoedSchema.parse(await res.json()).choices[0]!.logprobs;
  let sum = 0;
  let count = 0;
  lp.tokens.forEach((token, i) => {
    const end = lp.text_offset[i + 1] ?? lp.text_offset[i]! + token.length;
    if (end > context.length) {
      sum += lp.token_logprobs[i]!;
      count++;
    }
  });
  return { sum, count };
}

const argmax = (xs: number[]) => xs.indexOf(Math.max(...xs));

const scoreLineSchema = z.object({ sample: z.string(), index: z.number(), scores: z.record(z.string(), z.number().nullable()) });
const readScores = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => scoreLineSchema.parse(JSON.parse(l)));

let server: DevServer;
let root: string;
let cacheDir: string;

beforeAll(async () => {
  server = await startDevServer({ port: 0, policy, models: ["ue-model"] });
  root = writeUltraEvalFolder();
  cacheDir = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
});
afterAll(async () => {
  await server.close();
});

describe("yardstick run on UltraEval configs", () => {
  it("runs an mmlu-style gen task and a hellaswag-style ppl task; the ppl choice is the one computed by hand", async () => {
    const out = join(root, "run");
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const code = await main(["run", join(root, "datasets"), "--model", "openai-compatible:ue-model", "--base-url", `${server.url}/v1`, "--out", out, "--quiet"], io);
    expect(io.err()).toBe("");
    expect(code).toBe(0);

    // gen: raw completion prompts (nothing on the chat endpoint), scored with prefix_match against "(X)".
    const requests = server.stats().requests;
    expect(requests["/v1/chat/completions"] ?? 0).toBe(0);
    // One completion per gen row; one echo request per ppl row, its options together as a prompt array.
    expect(requests["/v1/completions"]).toBe(MMLU.length + HELLASWAG.length);
    const prompts = Object.values(server.stats().byPromptHash).reduce((a, b) => a + b, 0);
    expect(prompts).toBe(MMLU.length + HELLASWAG.reduce((n, r) => n + r.endings.length, 0));
    const expectedGen = MMLU.map((r) => (r.answer.trim().startsWith(`(${String.fromCharCode(65 + r.gold)})`) ? 1 : 0));
    const gen = readScores(join(out, "scores", "mmlu_arithmetic_gen.jsonl"));
    expect(gen.map((s) => s.scores.accuracy)).toEqual(expectedGen);
    expect(expectedGen).toContain(0);
    expect(expectedGen).toContain(1);

    // ppl: one request per option; the choice is the option with the highest mean continuation logprob.
    const expectedPpl: number[] = [];
    let normalisationMatters = false;
    for (const row of HELLASWAG) {
      const context = `${row.activity}: ${row.ctx} `;
      const scored = await Promise.all(row.endings.map((e) => continuationScore(server, context, e)));
      const perToken = argmax(scored.map((s) => s.sum / s.count));
      const summed = argmax(scored.map((s) => s.sum));
      if ((perToken === row.gold) !== (summed === row.gold)) normalisationMatters = true;
      expectedPpl.push(perToken === row.gold ? 1 : 0);
    }
    // The data is such that scoring by the summed logprob would give other scores.
    expect(normalisationMatters).toBe(true);
    const ppl = readScores(join(out, "scores", "hellaswag_activities_ppl.jsonl"));
    expect(ppl.map((s) => s.scores.accuracy)).toEqual(expectedPpl);

    // A dataset's score is the mean of its tasks (upstream's mean_result), under the dataset.
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(results.all.mmlu.mmlu_arithmetic_gen.accuracy).toBe(mean(expectedGen));
    expect(results.all.mmlu.mmlu).toBe(mean(expectedGen));
    expect(results.all.hellaswag.hellaswag_activities_ppl.accuracy).toBe(mean(expectedPpl));
  });

  it("validate and ls read an UltraEval folder as they read SEA-HELM configs", async () => {
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["validate", join(root, "datasets")], io)).toBe(0);
    expect(io.out()).toContain("ok: 2 task(s)");
    const ls = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["ls", join(root, "datasets"), "--json"], ls)).toBe(0);
    const listed = (JSON.parse(ls.out()) as { tasks: { key: string; mode: string; competency: string; runsHere: boolean }[] }).tasks;
    expect(listed.map((t) => [t.key, t.mode, t.competency, t.runsHere])).toEqual([
      ["hellaswag_activities_ppl", "loglikelihood", "hellaswag", true],
      ["mmlu_arithmetic_gen", "generate", "mmlu", true],
    ]);
  });

  it("validate names a task whose transform has no port, with its file; ls lists it as not runnable", async () => {
    const other = mkdtempSync(join(tmpdir(), "yardstick-ultraeval-unported-"));
    const config = join(other, "datasets", "ceval", "config", "law_gen.json");
    mkdirSync(dirname(config), { recursive: true });
    mkdirSync(join(other, "datasets", "ceval", "data"));
    writeFileSync(join(other, "datasets", "ceval", "data", "law.jsonl"), `${rowJson({ question: "Q?" }, ["a", "b"], 0)}\n`);
    writeFileSync(
      config,
      JSON.stringify({
        task_name: "law",
        path: "datasets/ceval/data/law.jsonl",
        description: "",
        transform: "datasets/ceval/transform_gen_v0.py",
        fewshot: 0,
        generate: { method: "generate", params: "" },
        postprocess: "",
        metric: { accuracy: { evaluation: { type: "prefix_match" } } },
      }),
    );
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["validate", other, "--strict"], io)).toBe(1);
    expect(io.err()).toContain(`ceval_law_gen ${relative(process.cwd(), config)}: uses the transform datasets/ceval/transform_gen_v0.py, which has no TypeScript port`);
    expect(io.err()).not.toMatch(/\n\s+at /);
    const ls = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["ls", other, "--json"], ls)).toBe(0);
    const [task] = (JSON.parse(ls.out()) as { tasks: { runsHere: boolean; reasons: { code: string; message: string }[] }[] }).tasks;
    expect(task?.runsHere).toBe(false);
    expect(task?.reasons.find((r) => r.code === "transform")?.message).toContain("no TypeScript port");
  });
});
