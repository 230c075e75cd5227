import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LabelStore, loadDataFolder } from "@yardstick/labeling";
import { describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

/**
 * The fixture (__fixtures__/agreement): a run store whose rubric judge rated s1..s6 of task
 * helpfulness/en (s7's reply did not parse, s8's call failed), and a labeling data folder whose
 * rubric task has ann's labels of s1..s8 and bo's of s1, s2.
 *
 * Pairs (judge, human): s1 ann H/H, s1 bo H/H, s2 ann H/P, s2 bo H/H, s3 P/P, s4 U/U, s5 H/U, s6 U/U
 * (U = unhelpful 0, P = partial 0.5, H = helpful 1): 6 of 8 agree, p_o = 3/4.
 * Marginals over pairs: judge U 2, P 1, H 5; human U 3, P 2, H 3; p_e = (2·3 + 1·2 + 5·3)/64 = 23/64,
 * so κ = (48/64 − 23/64)/(41/64) = 25/41.
 * Quadratic weights on ranks U0 P1 H2: Σw·O = 1 (s2 ann) + 4 (s5) = 5; Σw·E = Σ (i−j)²·rᵢ·cⱼ / 8
 * = (2·(2·1 + 3·4) + 1·(3·1 + 3·1) + 5·(3·4 + 2·1)) / 8 = 104/8 = 13, so κ_w = 1 − 5/13 = 8/13.
 * Krippendorff, nominal (coders judge, ann, bo; 14 pairable values, n_H 6, n_P 3, n_U 5): observed
 * Σ 1/(m−1)·Σ_{c≠k} = 4/2 (s2) + 2/1 (s5) = 4; expected Σ_{c≠k} n_c·n_k = 196 − 70 = 126, so
 * α = 1 − 13·4/126 = 37/63. Interval (δ² H–P 0.25, H–U 1, P–U 0.25): observed 1/2 + 2 = 2.5;
 * expected 2·(6·3·0.25 + 6·5·1 + 3·5·0.25) = 76.5, so α = 1 − 13·2.5/76.5 = 88/153.
 */
const FIXTURE = join(import.meta.dirname, "__fixtures__", "agreement");
const RUN = join(FIXTURE, "run");
const LABELS = join(FIXTURE, "labels");

async function agreement(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIO();
  const code = await main(["agreement", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

async function agreementJson(args: string[]): Promise<any> {
  const r = await agreement([...args, "--json"]);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

function expectHandComputed(report: any): void {
  expect(report).toMatchObject({ items: 6, pairs: 8, raters: 2, percentAgreement: 0.75 });
  expect(report.cohensKappa).toBeCloseTo(25 / 41, 12);
  expect(report.weightedKappa).toBeCloseTo(8 / 13, 12);
  expect(report.alpha.nominal).toBeCloseTo(37 / 63, 12);
  expect(report.alpha.interval).toBeCloseTo(88 / 153, 12);
  expect(report.confusion).toEqual({
    categories: ["unhelpful", "partial", "helpful"],
    counts: [
      [2, 0, 0],
      [0, 1, 0],
      [1, 1, 3],
    ],
  });
  expect(report.disagreements.map((d: any) => [d.sample, d.rater, d.judge.label, d.human.label, d.distance])).toEqual([
    ["s5", "ann", "helpful", "unhelpful", 1],
    ["s2", "ann", "helpful", "partial", 0.5],
  ]);
}

describe("yardstick agreement", () => {
  it("reports the hand-computed kappa, alpha and confusion of the fixture in a table", async () => {
    const r = await agreement([RUN, LABELS]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("left out: 2 judge call(s) failed or did not parse");
    expect(r.out).toContain("shared items 6, pairs 8, labelers 2; judged only 0; labelled only 2");
    expect(r.out).toMatch(/compared\s+labels\n/);
    expect(r.out).toMatch(/Cohen's kappa\s+0\.610\n/);
    expect(r.out).toMatch(/quadratic-weighted kappa\s+0\.615\n/);
    expect(r.out).toMatch(/Krippendorff's alpha \(nominal\)\s+0\.587\n/);
    expect(r.out).toMatch(/judge \\ human\s+unhelpful\s+partial\s+helpful\nunhelpful\s+2\s+0\s+0\n/);
    expect(r.out).toMatch(/helpfulness\/en\s+s5\s+ann\s+helpful \(1\)\s+unhelpful \(0\)\s+1\n/);
  });

  it("gives the same numbers as JSON, from the data folder or from its results file", async () => {
    const fromFolder = await agreementJson([RUN, LABELS]);
    expect(fromFolder.excluded).toEqual({ judgeErrors: 2, judgeUnrated: 0, comparisonLabels: 0, unratedLabels: 0 });
    expect(fromFolder.groups).toHaveLength(1);
    expect(fromFolder.groups[0]).toMatchObject({ call: "", judgedOnly: 0, labelledOnly: 2, otherRubric: 0 });
    expectHandComputed(fromFolder.groups[0].report);
    const fromFile = await agreementJson([RUN, join(LABELS, "results", "help_results.jsonl")]);
    expectHandComputed(fromFile.groups[0].report);
  });

  it("reads labels that label to-run wrote into the run itself", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "yardstick-agreement-"));
    const run = join(tmp, "run");
    const data = join(tmp, "labels");
    cpSync(RUN, run, { recursive: true });
    cpSync(LABELS, data, { recursive: true });
    rmSync(join(data, "results"), { recursive: true });
    // Label the fixture's answers again through the label store (ann all eight, bo the first two).
    const task = loadDataFolder(data).tasks.get("help")!;
    const store = new LabelStore(data);
    const answers: Record<string, string[]> = {
      ann: ["helpful", "partial", "partial", "unhelpful", "unhelpful", "unhelpful", "helpful", "partial"],
      bo: ["helpful", "helpful"],
    };
    for (const [name, labels] of Object.entries(answers)) {
      const labeler = store.labelerByToken(store.addLabeler(name))!;
      for (const label of labels) {
        const line = store.next("help", labeler.id, task.lines, 2, 60_000)!;
        store.submit("help", labeler.id, line, JSON.stringify({ rubric: label }), null, 2);
      }
    }
    store.close();
    const io = captureIO();
    expect(await main(["label", "to-run", run, "--task", "help", "--data", data], io)).toBe(0);
    expect(io.out()).toContain("10 label record(s)");
    const report = await agreementJson([run]);
    expectHandComputed(report.groups[0].report);
    // The run's own labels given explicitly as LABELS give the same.
    expectHandComputed((await agreementJson([run, run])).groups[0].report);
  });

  it("reports each judge call id on its own, or the one --call names", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "yardstick-agreement-"));
    const run = join(tmp, "run");
    cpSync(RUN, run, { recursive: true });
    // A second criterion that agrees with ann on s1..s4.
    const second = { s1: "helpful", s2: "partial", s3: "partial", s4: "unhelpful" } as Record<string, string>;
    const score: Record<string, number> = { unhelpful: 0, partial: 0.5, helpful: 1 };
    for (const [sample, label] of Object.entries(second)) {
      const record = { task: "helpfulness/en", sample, turn: 1, stage: "judge", call: "criterion-2", status: "ok", key: `c2-${sample}`, promptHash: "x", cached: false, judgement: { label, score: score[label] }, time: "2026-01-01T00:00:00.000Z" };
      appendFileSync(join(run, "responses.jsonl"), `${JSON.stringify(record)}\n`);
    }
    // A call judging another rubric (the way the rubric judge names it, in data.rubric) pairs with no label.
    const tone = { task: "helpfulness/en", sample: "s1", turn: 1, stage: "judge", call: "tone", status: "ok", key: "tone-s1", promptHash: "x", cached: false, judgement: { label: "polite", score: 1, data: { rubric: "tone" } }, time: "2026-01-01T00:00:00.000Z" };
    appendFileSync(join(run, "responses.jsonl"), `${JSON.stringify(tone)}\n`);
    const both = await agreementJson([run, LABELS]);
    expect(both.groups.map((g: any) => g.call)).toEqual(["", "criterion-2", "tone"]);
    expect(both.groups[2]).toEqual({ call: "tone", judgedOnly: 1, labelledOnly: 10, otherRubric: 2 });
    expectHandComputed(both.groups[0].report);
    // criterion-2 vs ann on s1..s4 and bo on s1, s2: disagrees only with bo on s2.
    expect(both.groups[1].report).toMatchObject({ items: 4, pairs: 6, percentAgreement: 5 / 6 });
    expect(both.groups[1].labelledOnly).toBe(4);
    const one = await agreementJson([run, LABELS, "--call", "criterion-2"]);
    expect(one.groups.map((g: any) => g.call)).toEqual(["criterion-2"]);
    const text = await agreement([run, LABELS]);
    expect(text.out).toContain('judge call "criterion-2"');
    expect(text.out).toContain("labelled only 10 (2 of them answer another rubric than the judge's)");
  });

  it("takes a judge's retry in place of the call whose reply did not parse, and ignores a retry of a call that did", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "yardstick-agreement-"));
    const run = join(tmp, "run");
    cpSync(RUN, run, { recursive: true });
    const retry = (sample: string, label: string, score: number) =>
      `${JSON.stringify({ task: "helpfulness/en", sample, turn: 1, stage: "judge", call: "#retry", status: "ok", key: `retry-${sample}`, promptHash: "x", cached: false, judgement: { label, score, data: { rubric: "helpfulness" } }, time: "2026-01-01T00:00:01.000Z" })}\n`;
    appendFileSync(join(run, "responses.jsonl"), retry("s7", "helpful", 1) + retry("s1", "unhelpful", 0));
    const r = await agreementJson([run, LABELS]);
    expect(r.excluded.judgeErrors).toBe(1); // s8's failed call; s7's retry stands in for its first reply
    expect(r.groups.map((g: any) => g.call)).toEqual([""]);
    // The fixture's 8 pairs (6 agree) plus s7: judge helpful, ann helpful.
    expect(r.groups[0].report).toMatchObject({ items: 7, pairs: 9, percentAgreement: 7 / 9 });
  });

  it("matches a plain Quest results file by sample id within the run's task, reading the answer --field names", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "yardstick-agreement-"));
    const file = join(tmp, "quest_results.jsonl");
    // Quest's own shape: no labeler, no metadata; a numeric scale and a comment.
    const line = (id: string, quality: number) =>
      `${JSON.stringify({ sample: { type: "text_completion", id, prompt: "p", completion: "c" }, feedback: { quality, note: "ok" }, timestamp: "t" })}\n`;
    writeFileSync(file, line("s1", 1) + line("s3", 0.5) + line("s4", 1) + line("zz", 1));
    // A comparison line (two answers at once) rates a pair, not the judged answer: counted, left out.
    const pair = [1, 2].map((n) => ({ type: "text_completion", id: `p${n}`, metadata: { task: "helpfulness/en", sample: "s1" }, prompt: "p", completion: "c" }));
    const comparison = join(tmp, "comparison_results.jsonl");
    writeFileSync(comparison, `${JSON.stringify({ sample: pair, feedback: { better: "p1" }, timestamp: "t", labeler: "ann" })}\n`);
    const compared = await agreement([RUN, comparison, "--json"]);
    expect(compared.code).toBe(1);
    expect(JSON.parse(compared.out).excluded).toMatchObject({ comparisonLabels: 1, unratedLabels: 0 });
    const unread = await agreement([RUN, file, "--json"]);
    expect(unread.code).toBe(1);
    expect(JSON.parse(unread.out).excluded.unratedLabels).toBe(4);
    const read = await agreementJson([RUN, file, "--field", "quality"]);
    const report = read.groups[0].report;
    // Judge scores s1 1, s3 0.5, s4 0 against 1, 0.5, 1; "zz" is not a sample of the run.
    expect(report).toMatchObject({ items: 3, pairs: 3, raters: 3, percentAgreement: 2 / 3 });
    expect(read.groups[0].labelledOnly).toBe(1);
    expect(report.disagreements).toEqual([
      { task: "helpfulness/en", sample: "s4", rater: "quest_results.jsonl line 3", judge: { label: "unhelpful", score: 0 }, human: { score: 1 }, distance: 1 },
    ]);
  });

  it("explains bad input without a stack trace", async () => {
    const missing = await agreement([RUN, join(FIXTURE, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error: LABELS .*nope does not exist\n$/);
    const noRun = await agreement([join(FIXTURE, "nope"), LABELS]);
    expect(noRun.err).toMatch(/^error: RUN .*nope does not exist \(give a folder `yardstick run` wrote\)\n$/);
    const notRun = await agreement([LABELS, LABELS]);
    expect(notRun.err).toMatch(/^error: RUN .*labels is not a run store \(no responses\.jsonl\)\n$/);
    const noCall = await agreement([RUN, LABELS, "--call", "criterion-9"]);
    expect(noCall.err).toMatch(/no judge rating has call id "criterion-9"; the call ids are ""/);
    const otherTask = await agreement([RUN, LABELS, "--task", "other/en"]);
    expect(otherTask.err).toMatch(/has no usable judge-stage ratings for task other\/en/);
    const wrongField = await agreement([RUN, LABELS, "--field", "nothing"]);
    expect(wrongField.code).toBe(1);
    expect(wrongField.out).toContain("10 label(s) without a readable answer (try --field)");
    expect(wrongField.err).toMatch(/no sample has both a judge rating and a human label/);
    const usage = await agreement([]);
    expect(usage.code).toBe(2);
    const help = captureIO();
    expect(await main(["help", "agreement"], help)).toBe(0);
    expect(help.out()).toContain("usage: yardstick agreement RUN [LABELS]");
  });
});

describe("yardstick label import with a rubric", () => {
  it("--rubric makes a single-answer task whose question is the rubric, with the rubric copied beside it", async () => {
    const data = mkdtempSync(join(tmpdir(), "yardstick-rubric-import-"));
    const io = captureIO();
    expect(await main(["label", "import", RUN, "--rubric", join(LABELS, "tasks", "helpfulness.yaml"), "--data", data], io), io.err()).toBe(0);
    expect(io.out()).toMatch(/wrote 8 line\(s\) to .*helpfulness\.jsonl; task .*tasks\/helpfulness\.json/);
    const folder = loadDataFolder(data);
    expect(folder.problems).toEqual([]);
    const task = folder.tasks.get("helpfulness")!;
    expect(task.def).toMatchObject({ presentation: { type: "single" }, rubric: "helpfulness.yaml", taskInfo: { description: "Does the response answer the user's question?" } });
    expect(Object.keys(task.def.feedback)).toEqual(["rubric"]);
    expect(task.dataset.items[0]!.samples[0]).toMatchObject({ metadata: { task: "helpfulness/en", sample: "s1" } });
    // Never overwrites; two runs cannot share one rubric question.
    const again = captureIO();
    expect(await main(["label", "import", RUN, "--rubric", join(LABELS, "tasks", "helpfulness.yaml"), "--data", data], again)).toBe(1);
    expect(again.err()).toContain("exists already");
    const two = captureIO();
    expect(await main(["label", "import", RUN, RUN, "--rubric", join(LABELS, "tasks", "helpfulness.yaml"), "--data", data], two)).toBe(2);
    expect(two.err()).toContain("a rubric rates one answer at a time");
  });

  it("--task copies the rubric the task names into the data folder", async () => {
    const root = mkdtempSync(join(tmpdir(), "yardstick-rubric-import-"));
    cpSync(join(LABELS, "tasks"), join(root, "src"), { recursive: true });
    const data = join(root, "data");
    mkdirSync(data);
    const io = captureIO();
    expect(await main(["label", "import", RUN, "--task", join(root, "src", "help.json"), "--data", data], io), io.err()).toBe(0);
    expect(readFileSync(join(data, "tasks", "helpfulness.yaml"), "utf8")).toBe(readFileSync(join(LABELS, "tasks", "helpfulness.yaml"), "utf8"));
    expect(existsSync(join(data, "datasets", "help.jsonl"))).toBe(true);
    expect(loadDataFolder(data).tasks.get("help")?.def.feedback.rubric).toMatchObject({ type: "select" });
  });
});

describe("rubric judge and human labels end to end", () => {
  it("runs the rubric judge, imports the run as a rubric task, labels it, writes the labels back and reports agreement", async () => {
    const { startDevServer } = await import("@yardstick/testing");
    const server = await startDevServer({ port: 0, models: ["gen"] });
    const tmp = mkdtempSync(join(tmpdir(), "yardstick-agreement-e2e-"));
    const env = { YARDSTICK_CACHE_DIR: join(tmp, "cache") };
    try {
      const rubric = join(tmp, "helpfulness.yaml");
      cpSync(join(LABELS, "tasks", "helpfulness.yaml"), rubric);
      const rows = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, q: `question ${i}`, label: "yes" }));
      const config = join(tmp, "helpful.judged.json");
      writeFileSync(config, JSON.stringify({ name: "helpful", rows, judge: "rubric", judgeOptions: { rubric } }));
      const plugin = join(import.meta.dirname, "__fixtures__", "judge-plugin.ts");
      const base = `${server.url}/v1`;
      const run = join(tmp, "run");
      const ran = captureIO(env, tmp);
      const args = ["run", config, "--model", "openai-compatible:gen", "--base-url", base, "--judge-model", "openai-compatible:gen", "--judge-base-url", base];
      expect(await main([...args, "--plugin", plugin, "--out", run, "--no-report", "--quiet"], ran), ran.err()).toBe(0);

      // The judge's choices (the dev server answers the forced tool call), per sample.
      const judged = new Map<string, string>();
      for (const line of readFileSync(join(run, "responses.jsonl"), "utf8").trim().split("\n")) {
        const r = JSON.parse(line);
        if (r.stage === "judge") judged.set(r.sample, r.judgement.label);
      }
      expect(judged.size).toBe(8);

      const data = join(tmp, "data");
      mkdirSync(data);
      const imported = captureIO(env, tmp);
      expect(await main(["label", "import", run, "--rubric", rubric, "--data", data], imported), imported.err()).toBe(0);
      // ann agrees with the judge everywhere but on the first line, where she picks another choice.
      const task = loadDataFolder(data).tasks.get("helpfulness")!;
      const store = new LabelStore(data);
      const ann = store.labelerByToken(store.addLabeler("ann"))!;
      let flipped = "";
      for (;;) {
        const line = store.next("helpfulness", ann.id, task.lines, 1, 60_000);
        if (line === undefined) break;
        const sample = String(task.itemByLine.get(line)!.samples[0]!.metadata!.sample);
        let label = judged.get(sample)!;
        if (flipped === "") {
          flipped = sample;
          label = label === "helpful" ? "unhelpful" : "helpful";
        }
        store.submit("helpfulness", ann.id, line, JSON.stringify({ rubric: label }), null, 1);
      }
      store.close();
      const toRun = captureIO(env, tmp);
      expect(await main(["label", "to-run", run, "--task", "helpfulness", "--data", data], toRun), toRun.err()).toBe(0);

      const report = (await agreementJson([run])).groups[0].report;
      expect(report).toMatchObject({ items: 8, pairs: 8, raters: 1, basis: "label", percentAgreement: 7 / 8 });
      expect(report.disagreements).toHaveLength(1);
      expect(report.disagreements[0]).toMatchObject({ task: "helpful/en", sample: flipped, rater: "ann", judge: { label: judged.get(flipped) } });
    } finally {
      await server.close();
    }
  });
});
