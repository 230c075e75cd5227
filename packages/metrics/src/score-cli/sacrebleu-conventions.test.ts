import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createRng, type MetricInput, type MetricV1 } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { createBleuMetric, textMetrics } from "../text/index.js";
import { bootstrapEstimate, resampledCorpusScores } from "./confidence.js";
import { bleuSegmentStatistics } from "../text/bleu-metric.js";
import { runScoreCli, type ScoreCliIo } from "./run-score-cli.js";

const dir = mkdtempSync(join(tmpdir(), "yardstick-score-conv-"));
function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

async function run(argv: string[], stdin?: ScoreCliIo["stdin"], metrics: Record<string, MetricV1> = textMetrics) {
  let out = "";
  let err = "";
  const io: ScoreCliIo = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  if (stdin !== undefined) io.stdin = stdin;
  const code = await runScoreCli(argv, io, metrics);
  return { code, out, err };
}

// sacrebleu README example: BLEU 48.53 against both references.
const sysLines = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."];
const pred = file("sys.txt", sysLines);
const ref1 = file("ref1.txt", ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]);
const ref2 = file("ref2.txt", ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]);
const bleu2 = ["-m", "bleu", "-r", ref1, "-r", ref2];
const packageVersion = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("yardstick score reads predictions from standard input", () => {
  it("with --pred - or without --pred, giving the same result as the file", async () => {
    const fromFile = await run([...bleu2, "--pred", pred]);
    const text = `${sysLines.join("\n")}\n`;
    const dash = await run([...bleu2, "--pred", "-"], Readable.from([text]));
    const absent = await run(bleu2, Readable.from([text]));
    expect(dash.err).toBe("");
    expect(JSON.parse(dash.out)).toEqual(JSON.parse(fromFile.out));
    expect(absent.out).toBe(dash.out);
  });

  it("decodes a character split across chunks", async () => {
    const bytes = Buffer.from("naïve café\n", "utf8");
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "ï"
    const refPath = file("cafe.txt", ["naïve café"]);
    const r = await run(["-m", "exact-match", "-r", refPath, "-b"], Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]));
    expect(r.out).toBe("100.0\n");
  });

  it("refuses a terminal, empty input and a line-count mismatch with exit 2", async () => {
    const tty = Object.assign(Readable.from([]), { isTTY: true });
    const t = await run(bleu2, tty);
    expect([t.code, t.out]).toEqual([2, ""]);
    expect(t.err).toMatch(/no --pred FILE given and standard input is a terminal/);
    const empty = await run(bleu2, Readable.from([""]));
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/standard input \(the predictions\) is empty/);
    const short = await run(bleu2, Readable.from(["one line\n"]));
    expect(short.code).toBe(2);
    expect(short.err).toMatch(/line counts differ: standard input has 1 lines but .*ref1\.txt has 3/);
  });
});

describe("yardstick score output as sacrebleu prints it", () => {
  it("-b prints the score alone with 1 decimal, -w 3 with 3", async () => {
    expect((await run([...bleu2, "-p", pred, "-b"])).out).toBe("48.5\n");
    expect((await run([...bleu2, "-p", pred, "--score-only", "-w", "3"])).out).toBe("48.531\n");
    expect((await run([...bleu2, "-p", pred, "-b", "-w", "0"])).out).toBe("49\n");
  });

  it("JSON keeps the full score unless -w is given, and carries the signature fields", async () => {
    const full = JSON.parse((await run([...bleu2, "-p", pred])).out);
    expect(full.score).toBeCloseTo(48.530827009929865, 12);
    const w3 = JSON.parse((await run([...bleu2, "-p", pred, "-w", "3"])).out);
    expect(w3.score).toBe(48.531);
    expect([w3.nrefs, w3.case, w3.eff, w3.tok, w3.smooth, w3.version]).toEqual(["2", "mixed", "no", "13a", "exp", packageVersion]);
  });

  it("-f text prints sacrebleu's one line", async () => {
    const r = await run([...bleu2, "-p", pred, "-f", "text"]);
    expect(r.out).toBe(
      `BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:${packageVersion} = 48.5 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)\n`,
    );
  });

  it("the signature names the metric's actual settings and @yardstick/metrics' package.json version", async () => {
    const lc = JSON.parse((await run(["-m", "bleu", "-o", "lowercase=true", "-o", "tokenize=char", "-r", ref1, "-p", pred])).out);
    expect(lc.signature).toBe(`nrefs:1|case:lc|eff:no|tok:char|smooth:exp|version:${packageVersion}`);
    const chrf = JSON.parse((await run(["-m", "chrf++", "-r", ref1, "-p", pred])).out);
    expect(chrf.signature).toBe(`nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:${packageVersion}`);
    const em = JSON.parse((await run(["-m", "exact-match", "-r", ref1, "-r", ref2, "-p", pred])).out);
    expect(em.signature).toBe(`nrefs:2|version:${packageVersion}`);
    expect(em.signature.split("|").at(-1)).toBe(`version:${packageVersion}`);
  });
});

describe("yardstick score --confidence", () => {
  it("prints (μ = mean ± half-width), adds bs and seed to the signature, and is reproducible", async () => {
    const args = [...bleu2, "-p", pred, "--confidence", "--confidence-n", "500"];
    const a = await run([...args, "-f", "text"]);
    const b = await run([...args, "-f", "text"]);
    expect(a.out).toBe(b.out);
    expect(a.out).toMatch(/^BLEU\|nrefs:2\|bs:500\|seed:12345\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:[^ ]+ = 48\.5 \(μ = \d+\.\d ± \d+\.\d\) 82\.4/);
    const j = JSON.parse((await run(args)).out);
    expect(j.confidence).toBe(`μ = ${j.confidence_mean.toFixed(1)} ± ${j.confidence_var.toFixed(1)}`);
    expect([j.bs, j.seed]).toEqual(["500", "12345"]);
    const otherSeed = JSON.parse((await run([...args, "--seed", "7"])).out);
    expect(otherSeed.signature).toContain("|seed:7|");
    expect(otherSeed.confidence).not.toBe(j.confidence);
    expect((await run([...args, "-b", "-w", "2"])).out).toMatch(/^48\.53 \(μ = \d+\.\d\d ± \d+\.\d\d\)\n$/);
  });

  it("resamples whole segments: equals BLEU recomputed on each resample drawn with the same seed", async () => {
    const inputs: MetricInput[] = sysLines.map((prediction, i) => ({ sampleId: String(i), prediction, reference: [readLines(ref1)[i]!, readLines(ref2)[i]!] }));
    const fromStats = resampledCorpusScores(bleuSegmentStatistics(inputs, {}), 50, 99);
    const rng = createRng(99);
    const metric = createBleuMetric();
    for (let r = 0; r < 50; r++) {
      const resample = inputs.map(() => inputs[rng.nextInt(inputs.length)]!);
      const direct = (await metric.compute(resample, {})).scores.bleu!;
      expect(fromStats[r]).toBeCloseTo(direct, 10);
    }
  });

  it("takes sacrebleu's bounds: the ⌊n/40⌋-th score from each end, no interpolation", () => {
    const scores = Float64Array.from({ length: 80 }, (_, i) => 79 - i); // given in descending order: sorting is part of the estimate
    const e = bootstrapEstimate(scores);
    expect(e.mean).toBe(39.5);
    expect(e.halfWidth).toBe(0.5 * (77 - 2));
  });

  it("bootstraps the per-line mean for a metric whose score is that mean", async () => {
    const r = await run(["-m", "token-f1", "-r", ref1, "-p", pred, "--confidence", "-f", "text"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^token-f1\|nrefs:1\|bs:2000\|seed:12345\|version:[^ ]+ = \d+\.\d \(μ = \d+\.\d ± \d+\.\d\)\n$/);
  });

  it("refuses a metric whose score is not a mean of its lines", async () => {
    const odd: MetricV1 = {
      specVersion: "v1",
      id: "max-len",
      textPairs: true,
      compute: (inputs) => ({
        scores: { score: Math.max(...inputs.map((i) => String(i.prediction).length)) },
        perSample: inputs.map((i) => ({ sampleId: i.sampleId, scores: { score: String(i.prediction).length } })),
      }),
    };
    const r = await run(["-m", "max-len", "-r", ref1, "-p", pred, "--confidence"], undefined, { "max-len": odd });
    expect([r.code, r.out]).toEqual([2, ""]);
    expect(r.err).toMatch(/--confidence: the score metric "max-len" reports is not the mean of any of its per-line scores/);
  });
});

describe("yardstick score bad flags and files", () => {
  it.each([
    [["-p", join(dir, "nope.txt")], /cannot read prediction file .*nope\.txt: no such file/],
    [["-p", pred, "-w", "abc"], /--width expects a whole number from 0 to 20, got "abc"/],
    [["-p", pred, "-f", "latex"], /--format expects json or text, got "latex"/],
    [["-p", pred, "--confidence", "--confidence-n", "1"], /--confidence-n expects a whole number from 2/],
    [["-p", pred, "--seed", "1.5"], /--seed expects a whole number from 0 to 4294967295, got "1.5"/],
    [["-p", pred, "-b", "--per-sample"], /--per-sample needs the JSON format/],
  ])("exits 2: %o", async (extra, message) => {
    const r = await run([...bleu2, ...extra]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });
});

function readLines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").slice(0, -1);
}
