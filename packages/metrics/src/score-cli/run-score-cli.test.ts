import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MetricV1 } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { textMetrics } from "../text/index.js";
import { runScoreCli } from "./run-score-cli.js";

const dir = mkdtempSync(join(tmpdir(), "yardstick-score-"));
function file(name: string, lines: string[] | string): string {
  const path = join(dir, name);
  writeFileSync(path, Array.isArray(lines) ? `${lines.join("\n")}\n` : lines);
  return path;
}

async function run(argv: string[], metrics: Record<string, MetricV1> = textMetrics) {
  let out = "";
  let err = "";
  const code = await runScoreCli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } }, metrics);
  return { code, out, err };
}

// sacrebleu README example: two reference files.
const pred = file("sys.txt", ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]);
const ref1 = file("ref1.txt", ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]);
const ref2 = file("ref2.txt", ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]);

describe("yardstick score", () => {
  it("prints sacrebleu-style BLEU JSON for several reference files", async () => {
    const r = await run(["score", "--metric", "bleu", "--pred", pred, "--ref", ref1, "--ref", ref2]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.name).toBe("BLEU");
    expect(j.score.toFixed(2)).toBe("48.53");
    expect(j.counts).toHaveLength(4);
    expect([j.sys_len, j.ref_len]).toEqual([17, 18]);
    expect(j.signature).toMatch(/^nrefs:2\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:\d+\.\d+\.\d+/);
    expect(j.verbose_score).toBe("82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)");
  });

  it("passes --option values parsed as JSON (chrF with beta, rouge with a type list)", async () => {
    const chrf = await run(["--metric", "chrf", "--pred", pred, "--ref", ref1, "--ref", ref2]);
    expect(JSON.parse(chrf.out).score.toFixed(2)).toBe("59.73");
    const chrf3 = await run(["--metric", "chrf", "--option", "beta=3", "--pred", pred, "--ref", ref1]);
    expect(JSON.parse(chrf3.out).name).toBe("chrF3");
    const rouge = await run(["--metric", "rouge", "-o", "rouge_types=rouge1,rougeL", "-o", "use_stemmer=true", "--pred", pred, "--ref", ref1, "--per-sample"]);
    expect(rouge.code).toBe(0);
    const j = JSON.parse(rouge.out);
    expect(Object.keys(j)).toEqual(expect.arrayContaining(["rouge1", "rougeL", "per_sample"]));
    expect(j.per_sample[0].rouge1_fmeasure).toBe(1);
    expect(j.per_sample).toHaveLength(3);
  });

  it("scores metrics without a summary as {name, score_key, score, scores}", async () => {
    const r = await run(["--metric", "exact-match", "--pred", pred, "--ref", ref1]);
    const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
    expect(JSON.parse(r.out)).toEqual({
      name: "exact-match",
      score_key: "exact_match",
      score: 100 / 3,
      scores: { exact_match: 100 / 3 },
      signature: `nrefs:1|version:${version}`,
      nrefs: "1",
      version,
    });
  });

  it("--list lists only text-pair metrics", async () => {
    const other: MetricV1 = { specVersion: "v1", id: "judge-only", compute: () => ({ scores: {}, perSample: [] }) };
    const r = await run(["--list"], { ...textMetrics, "judge-only": other });
    expect(r.code).toBe(0);
    const ids = r.out.trim().split("\n").map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(["accuracy", "bleu", "chrf", "chrf++", "exact-match", "rouge", "token-f1"]);
  });

  it.each([
    [["--metric", "bleu", "--pred", pred], /at least one --ref/],
    [["--pred", pred, "--ref", ref1], /--metric is required/],
    [["--metric", "nope", "--pred", pred, "--ref", ref1], /unknown metric "nope"; text-pair metrics: accuracy, bleu/],
    [["--metric", "bleu", "--pred", pred, "--ref", ref1, "--bogus"], /Unknown option '--bogus'/],
    [["--metric", "bleu", "--pred", pred, "--ref", join(dir, "missing.txt")], /cannot read reference file .*missing\.txt: no such file/],
    [["--metric", "bleu", "--pred", pred, "--ref", file("short.txt", ["one line"])], /line counts differ: .*sys\.txt has 3 lines but .*short\.txt has 1/],
    [["--metric", "bleu", "--pred", file("empty.txt", ""), "--ref", ref1], /prediction file .*empty\.txt is empty/],
    [["--metric", "bleu", "-o", "tokenize", "--pred", pred, "--ref", ref1], /--option expects key=value/],
    [["--metric", "bleu", "-o", "tokenize=13b", "--pred", pred, "--ref", ref1], /metric bleu: invalid options: option tokenize/],
    [["--metric", "rouge", "-o", "rouge_types=rouge0", "--pred", pred, "--ref", ref1], /metric rouge: invalid options: option rouge_types/],
    [["--metric", "bleu", "-o", "lowercase=1", "-o", "lowercase=true", "--pred", pred, "--ref", ref1], /given twice/],
  ])("exits 2 with a clear message: %o", async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(message);
  });

  it("refuses a metric that cannot take text pairs", async () => {
    const other: MetricV1 = { specVersion: "v1", id: "judge-only", compute: () => ({ scores: {}, perSample: [] }) };
    const r = await run(["--metric", "judge-only", "--pred", pred, "--ref", ref1], { "judge-only": other });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot score plain text pairs/);
  });

  it("keeps empty lines as empty segments and accepts a file without a final newline", async () => {
    const p = file("p2.txt", "a b c d\n\nsame line here too");
    const r = file("r2.txt", "a b c d\nnot empty\nsame line here too\n");
    const res = await run(["--metric", "bleu", "--pred", p, "--ref", r, "--per-sample"]);
    expect(res.code).toBe(0);
    const j = JSON.parse(res.out);
    expect(j.per_sample.map((s: { bleu: number }) => Math.round(s.bleu))).toEqual([100, 0, 100]);
  });

  it("--help prints usage", async () => {
    const r = await run(["score", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: yardstick score/);
  });
});
