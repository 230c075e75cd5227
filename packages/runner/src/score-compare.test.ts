import { appendFileSync, cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

describe("yardstick score", () => {
  it("prints the corpus score and its parts as JSON, with several reference files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-score-"));
    writeFileSync(join(dir, "hyp.txt"), "The dog bit the man.\nIt wasn't surprising.\nThe man had just bitten him.\n");
    writeFileSync(join(dir, "ref1.txt"), "The dog bit the man.\nIt was not unexpected.\nThe man bit him first.\n");
    writeFileSync(join(dir, "ref2.txt"), "The dog had bit the man.\nNo one was surprised.\nThe man had bitten the dog.\n");
    const io = captureIO();
    const args = ["score", "--metric", "bleu", "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "ref1.txt"), "--ref", join(dir, "ref2.txt")];
    expect(await main(args, io)).toBe(0);
    const out = JSON.parse(io.out());
    // sacrebleu's README example: BLEU = 48.53 with these sentences and both references.
    expect(out.score).toBeCloseTo(48.530827009929865, 9);
    expect(out.counts).toEqual([14, 7, 5, 3]);
    expect(out.signature).toContain("nrefs:2");
  });

  it("reaches every text-pair metric and refuses unknown ids and mismatched files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-score-"));
    writeFileSync(join(dir, "hyp.txt"), "a b c\n");
    writeFileSync(join(dir, "ref.txt"), "a b c\n");
    writeFileSync(join(dir, "two.txt"), "a\nb\n");
    const list = captureIO();
    expect(await main(["score", "--list"], list)).toBe(0);
    for (const id of ["bleu", "chrf", "chrf++", "rouge", "exact-match", "token-f1", "ultraeval:f1_score"]) {
      expect(list.out()).toContain(id);
      const io = captureIO();
      expect(await main(["score", "--metric", id, "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "ref.txt")], io), `${id}: ${io.err()}`).toBe(0);
      expect(JSON.parse(io.out())).toBeTypeOf("object");
    }
    const unknown = captureIO();
    expect(await main(["score", "--metric", "nope", "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "ref.txt")], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/unknown metric "nope"/);
    const mismatch = captureIO();
    expect(await main(["score", "--metric", "bleu", "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "two.txt")], mismatch)).toBe(2);
    expect(mismatch.err()).toMatch(/line/);
  });
});

describe("yardstick compare", () => {
  it("refuses a folder that is not a finished run store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-cmp-"));
    const io = captureIO();
    expect(await main(["compare", dir, dir], io)).toBe(1);
    expect(io.err()).toMatch(/not a finished run store/);
    const usage = captureIO();
    expect(await main(["compare", dir], usage)).toBe(2);
    const missing = captureIO();
    expect(await main(["compare", join(dir, "nope"), dir], missing)).toBe(1);
    expect(missing.err()).toContain(`error: ${join(dir, "nope")}: does not exist (give a folder \`yardstick run\` wrote)`);
  });

  it("names a damaged results.json or scores line and how to rewrite it, without a stack trace", async () => {
    const tasks = makeSentimentTask(6);
    const env = { YARDSTICK_CACHE_DIR: join(tasks, "cache") };
    const a = join(tasks, "a");
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", a, "--quiet"], captureIO(env))).toBe(0);
    const b = join(tasks, "b");
    cpSync(a, b, { recursive: true });
    appendFileSync(join(b, "scores", "toy_en.jsonl"), "not json\n");
    const badLine = captureIO(env);
    expect(await main(["compare", a, b], badLine)).toBe(1);
    expect(badLine.err()).toContain(`${join(b, "scores", "toy_en.jsonl")}:7: not valid JSON`);
    expect(badLine.err()).toContain(`yardstick score-run ${b}\` rewrites the scores`);
    writeFileSync(join(b, "results.json"), '{"trunc');
    const badResults = captureIO(env);
    expect(await main(["compare", a, b], badResults)).toBe(1);
    expect(badResults.err()).toContain(`${join(b, "results.json")}: not valid JSON`);
    expect(badResults.err()).not.toMatch(/internal error|\n\s+at /);
    // The advice works: score-run rewrites both files from the intact answers.
    expect(await main(["score-run", b, "--quiet"], captureIO(env))).toBe(0);
    expect(await main(["compare", a, b], captureIO(env))).toBe(0);
  });

  it("names each task's main score and shows it as the run table does", async () => {
    // Every fourth answer of B is wrong, so its score is neither 0 nor 100.
    let n = 0;
    const server = await startDevServer({ port: 0, policy: (req) => (n++ % 4 === 0 ? "Answer: Wrong" : toyAnswer(req.lastUserText)) });
    try {
      const tasks = makeSentimentTask(12);
      const env = { YARDSTICK_CACHE_DIR: join(tasks, "cache") };
      const a = join(tasks, "a");
      const b = join(tasks, "b");
      const runA = captureIO(env);
      expect(await main(["run", tasks, "--model", "baseline:majority", "--out", a, "--quiet"], runA)).toBe(0);
      const runB = captureIO(env);
      expect(await main(["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", b, "--quiet"], runB)).toBe(0);
      const tableScore = (out: string): string => {
        const row = out.split("\n").find((l) => l.startsWith("toy "));
        expect(row, out).toBeDefined();
        return row!.split(/\s+/)[3]!; // task, lang, metric, score
      };
      const io = captureIO(env);
      expect(await main(["compare", a, b], io), io.err()).toBe(0);
      const row = io
        .out()
        .split("\n")
        .find((l) => l.startsWith("toy/en ") && l.includes("normalized_accuracy"));
      expect(row, io.out()).toBeDefined();
      const [, metric, scoreA, scoreB] = row!.split(/\s+/);
      expect(metric).toBe("normalized_accuracy");
      expect(scoreA).toBe(tableScore(runA.out()));
      expect(scoreB).toBe(tableScore(runB.out()));
      expect(scoreA).not.toBe(scoreB);
      const json = captureIO(env);
      expect(await main(["compare", a, b, "--json"], json)).toBe(0);
      expect(JSON.parse(json.out()).scores[0]).toMatchObject({ task: "toy/en", metric: "normalized_accuracy" });
    } finally {
      await server.close();
    }
  });
});


describe("yardstick score picks the headline value", () => {
  it("reports the normalized score of SEA-HELM metrics, or the key given with --main", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-score-"));
    writeFileSync(join(dir, "hyp.txt"), "the cat sat on the mat today\n");
    writeFileSync(join(dir, "ref.txt"), "a cat sat on a mat today\n");
    const io = captureIO();
    expect(await main(["score", "--metric", "seahelm-summarization", "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "ref.txt")], io)).toBe(0);
    const out = JSON.parse(io.out());
    expect(out.score_key).toBe("normalized_rougel_f1");
    expect(out.score).toBe(out.scores.normalized_rougel_f1);
    const chosen = captureIO();
    expect(
      await main(["score", "--metric", "seahelm-summarization", "--main", "rougel_f1", "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "ref.txt")], chosen),
    ).toBe(0);
    expect(JSON.parse(chosen.out()).score_key).toBe("rougel_f1");
    const wrong = captureIO();
    expect(await main(["score", "--metric", "bleu", "--main", "nope", "--pred", join(dir, "hyp.txt"), "--ref", join(dir, "ref.txt")], wrong)).toBe(2);
    expect(wrong.err()).toMatch(/--main nope: metric "bleu" reports/);
  });
});
