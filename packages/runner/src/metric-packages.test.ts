import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";
import { metricPackageNames } from "./metric-packages.js";

const HERE = dirname(fileURLToPath(import.meta.url));
/** SEA-HELM's instruction-following config (trimmed to `id`, three local rows). */
const IFEVAL_CONFIG = join(HERE, "__fixtures__", "seahelm_ifeval");
const IFEVAL_ROWS = readFileSync(join(IFEVAL_CONFIG, "instruction_following", "ifeval", "data", "id.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { prompts: [{ text: string }] });
/** The answers: the first two follow their instruction in Indonesian, the third breaks its word limit. */
const IFEVAL_ANSWERS = [
  "Halo, nama saya Budi dan saya tinggal di Jakarta.",
  "Kami pergi ke pantai untuk melihat matahari terbenam bersama keluarga.",
  "Saya suka makan nasi goreng di warung dekat rumah saya setiap hari karena rasanya enak.",
];

let server: DevServer;
let cacheDir: string;
beforeAll(async () => {
  server = await startDevServer({
    port: 0,
    policy: (req) => {
      const i = IFEVAL_ROWS.findIndex((r) => r.prompts[0].text === req.lastUserText);
      return i >= 0 ? IFEVAL_ANSWERS[i]! : toyAnswer(req.lastUserText);
    },
  });
  cacheDir = mkdtempSync(join(tmpdir(), "ys-metric-pkg-cache-"));
});
afterAll(async () => {
  await server.close();
});

const env = () => ({ YARDSTICK_CACHE_DIR: cacheDir });

describe("metric packages found by name", () => {
  it("maps a metric id to the package names it is looked up as", () => {
    expect(metricPackageNames("ifeval")).toEqual(["@yardstick/metric-ifeval", "yardstick-metric-ifeval"]);
    expect(metricPackageNames("seahelm:RefClipScoreMetric")).toEqual([
      "@yardstick/metric-seahelm-refclipscoremetric",
      "yardstick-metric-seahelm-refclipscoremetric",
      "@yardstick/metric-seahelm",
      "yardstick-metric-seahelm",
    ]);
    expect(metricPackageNames("ultraeval:log_prob")).toEqual([
      "@yardstick/metric-ultraeval-log_prob",
      "yardstick-metric-ultraeval-log_prob",
      "@yardstick/metric-ultraeval",
      "yardstick-metric-ultraeval",
    ]);
    // A namespaced variant is also looked up as its namespace's package: ifeval:en comes with @yardstick/metric-ifeval.
    expect(metricPackageNames("ifeval:en")).toEqual(["@yardstick/metric-ifeval-en", "yardstick-metric-ifeval-en", "@yardstick/metric-ifeval", "yardstick-metric-ifeval"]);
  });

  it("runs SEA-HELM's ifeval config without --plugin: @yardstick/metric-ifeval is found by the metric's name", async () => {
    const out = mkdtempSync(join(tmpdir(), "ys-ifeval-run-"));
    const io = captureIO(env());
    const code = await main(["run", IFEVAL_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--no-report"], io);
    expect(code, io.err()).toBe(0);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    const task = results.id["instruction-following"]["if-eval"];
    expect(task.n).toBe(3);
    expect(task.overall_lang_normalized_acc).toBeCloseTo(200 / 3, 6);
    expect(io.out()).toMatch(/if-eval\s+id\s+overall_lang_normalized_acc\s+66\.67/);
    // --plugin still works, and gives the same scores (from the run store: nothing is sent again).
    const again = captureIO(env());
    const sent = server.stats().requests["/v1/chat/completions"];
    const args = ["run", IFEVAL_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--no-report", "--plugin", "@yardstick/metric-ifeval"];
    expect(await main(args, again), again.err()).toBe(0);
    expect(server.stats().requests["/v1/chat/completions"]).toBe(sent);
    expect(JSON.parse(readFileSync(join(out, "results.json"), "utf8")).id["instruction-following"]["if-eval"].overall_lang_normalized_acc).toBe(task.overall_lang_normalized_acc);
  });

  it("a metric whose package is not installed is refused with the package names to install", async () => {
    const tasks = withMetricClass(makeSentimentTask(2), "ToyScoreMetric");
    const v = captureIO(env(), tasks);
    expect(await main(["validate", tasks, "--strict"], v)).toBe(1);
    expect(v.err()).toContain(
      'needs the metric "seahelm:ToyScoreMetric", which is not installed (SEA-HELM\'s ToyScoreMetric has no yardstick port yet; install @yardstick/metric-seahelm-toyscoremetric or yardstick-metric-seahelm-toyscoremetric: a package of either name is found without --plugin)',
    );
    const r = captureIO(env(), tasks);
    expect(await main(["run", tasks, "--model", "baseline:majority"], r)).toBe(1);
    expect(r.err()).toMatch(/task toy\/en needs the metric "seahelm:ToyScoreMetric".*install @yardstick\/metric-seahelm-toyscoremetric/);
  });

  it("a contributed package in the config folder's node_modules, named by the convention, is found by validate, ls, run and score-run", async () => {
    const dir = withMetricClass(makeSentimentTask(4), "ToyScoreMetric", "tagged_share");
    writeMetricPackage(dir, "yardstick-metric-seahelm-toyscoremetric", "seahelm:ToyScoreMetric");
    // Run from elsewhere: the package resolves from the config's folder, not only from the working folder.
    const elsewhere = mkdtempSync(join(tmpdir(), "ys-elsewhere-"));
    const v = captureIO(env(), elsewhere);
    expect(await main(["validate", dir, "--strict"], v), v.err()).toBe(0);

    const ls = captureIO(env(), dir);
    expect(await main(["ls", "metrics", "--json"], ls), ls.err()).toBe(0);
    expect(JSON.parse(ls.out()).metrics).toContainEqual(expect.objectContaining({ id: "seahelm:ToyScoreMetric", from: "yardstick-metric-seahelm-toyscoremetric" }));

    const out = join(dir, "run");
    const r = captureIO(env(), elsewhere);
    expect(await main(["run", dir, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--no-report"], r), r.err()).toBe(0);
    // The dev server answers "Answer: <label>" to every toy row: the contributed metric counts them all.
    expect(JSON.parse(readFileSync(join(out, "results.json"), "utf8")).en.nlu.toy.tagged_share).toBe(100);
    const s = captureIO(env(), dir);
    expect(await main(["score-run", out], s), s.err()).toBe(0);
  });

  it("@yardstick/metric-<id> is preferred to yardstick-metric-<id>, and a package that lacks the metric is a clear error", async () => {
    const dir = withMetricClass(makeSentimentTask(2), "ToyScoreMetric", "tagged_share");
    writeMetricPackage(dir, "@yardstick/metric-seahelm-toyscoremetric", "seahelm:OtherMetric");
    writeMetricPackage(dir, "yardstick-metric-seahelm-toyscoremetric", "seahelm:ToyScoreMetric");
    const v = captureIO(env(), dir);
    expect(await main(["validate", dir], v)).toBe(1);
    expect(v.err()).toMatch(/the metric package @yardstick\/metric-seahelm-toyscoremetric was found for the metric "seahelm:ToyScoreMetric" but registers no metric of that id/);
    expect(v.err()).toMatch(/it registers: seahelm:OtherMetric/);
    const ls = captureIO(env(), dir);
    expect(await main(["ls", dir, "--json"], ls), ls.err()).toBe(0);
    expect(JSON.parse(ls.out()).tasks[0]).toMatchObject({ runsHere: false, reasons: expect.arrayContaining([expect.objectContaining({ code: "missing-plugin-package" })]) });
  });
});

describe("metrics that need a neural model yardstick does not ship", () => {
  it("SEA-HELM's xm3600 (RefCLIPScore) is listed by validate and ls as not runnable, with the reason", async () => {
    const config = join(HERE, "__fixtures__", "seahelm_xm3600");
    const v = captureIO(env());
    expect(await main(["validate", config], v), v.err()).toBe(0);
    expect(v.err()).toMatch(/^warning: needs-neural-model: 1 task\(s\), 6 task-language pair\(s\) cannot run here$/m);
    expect(v.err()).toMatch(/xm3600 \(en, id, th, vi, tl, zh\) \S+config\.yaml: scores captions with RefCLIPScore, which needs a multilingual CLIP model .*image, its candidate caption and the reference captions; yardstick ships no neural scoring model/);
    const ls = captureIO(env());
    expect(await main(["ls", config, "--json"], ls), ls.err()).toBe(0);
    const rows = JSON.parse(ls.out()).tasks as { runsHere: boolean; reasons: { code: string }[] }[];
    expect(rows.every((r) => !r.runsHere && r.reasons.some((x) => x.code === "needs-neural-model"))).toBe(true);
  });
});

/** The toy task with another SEA-HELM metric class (and main score). */
function withMetricClass(dir: string, metricClass: string, mainScore?: string): string {
  const file = join(dir, "toy", "config.yaml");
  let text = readFileSync(file, "utf8").replace("F1AccMetric", metricClass);
  if (mainScore) text = text.replace("metric: normalized_accuracy", `metric: ${mainScore}`);
  writeFileSync(file, text);
  return dir;
}

/** A real package in `<dir>/node_modules`: one metric, the share of answers holding "Answer:" (0–100). */
function writeMetricPackage(dir: string, name: string, metricId: string): void {
  const root = join(dir, "node_modules", ...name.split("/"));
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module", exports: { ".": "./index.js" } }));
  writeFileSync(
    join(root, "index.js"),
    `const metric = {
  specVersion: "v1",
  id: ${JSON.stringify(metricId)},
  description: "share of answers holding Answer:",
  compute(inputs) {
    const hits = inputs.map((i) => (String(i.rawResponse ?? "").includes("Answer:") ? 1 : 0));
    return {
      scores: { tagged_share: (100 * hits.reduce((a, b) => a + b, 0)) / Math.max(1, hits.length) },
      perSample: inputs.map((i, k) => ({ sampleId: i.sampleId, scores: { tagged: hits[k] } })),
    };
  },
};
export const plugins = { metrics: { ${JSON.stringify(metricId)}: metric } };
export default plugins;
`,
  );
}
