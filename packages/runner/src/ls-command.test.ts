import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask } from "./__fixtures__/make-task.js";
import { createBuiltinRegistry } from "./builtins.js";
import type { LsRow } from "./ls-command.js";
import type { PluginRow } from "./ls-plugins.js";
import { main } from "./main.js";
import { findUnrunnable, loadTaskSpecs } from "./tasks.js";

const SRC = fileURLToPath(new URL(".", import.meta.url));
const RUNNER_TASKS = join(SRC, "__fixtures__", "seahelm_tasks");
const CONFIG_FIXTURES = join(SRC, "..", "..", "config", "src", "__fixtures__");
const CORPUS = join(CONFIG_FIXTURES, "seahelm_tasks");
const MIXED = join(CONFIG_FIXTURES, "dialects", "mixed");

const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

async function lsJson(args: string[]): Promise<LsRow[]> {
  const io = captureIO(env(), SRC);
  expect(await main(["ls", ...args, "--json"], io), io.err()).toBe(0);
  return (JSON.parse(io.out()) as { tasks: LsRow[] }).tasks;
}

describe("yardstick ls", () => {
  it("lists the runner and config fixtures as a table, one row per task and language", async () => {
    const io = captureIO(env(), SRC);
    expect(await main(["ls", "__fixtures__/seahelm_tasks", MIXED, "--langs", "id,en"], io), io.err()).toBe(0);
    const lines = io.out().split("\n");
    expect(lines[0]).toMatch(/^task\s+lang\s+competency\s+mode\s+metric\s+judge\s+data\s+runs here$/);
    expect(lines).toContainEqual(expect.stringMatching(/^sentiment\s+id\s+nlu\s+generate\s+normalized_accuracy\s+-\s+hf:aisingapore\/NLU-Sentiment-Analysis\s+yes$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^mini_sentiment\s+en\s+nlu\s+generate\s+normalized_accuracy\s+-\s+\.\.\/\.\.\/config\/src\/__fixtures__\/dialects\/mixed\/sentiment\/data\/test\.jsonl\s+yes$/),
    );
    // The logprob twin scores the gold label's log-probability (an echo request on /completions).
    expect(lines).toContainEqual(expect.stringMatching(/^sentiment-logprobs\s+id\s+nlu\s+loglikelihood\s+average_cumulative_probabilities\s+-\s+hf:\S+\s+yes$/));
    expect(io.out()).toContain("4 task-language pair(s), 4 run here");
    expect(io.out()).not.toContain("why not:");
  });

  it("says which corpus tasks do not run here, and why, in the table and in JSON", async () => {
    const args = [CORPUS, "--tasks", "sentiment-logprobs,global_mmlu_lite,mt-bench-judge,niah_multikey_8k", "--langs", "en,id"];
    const io = captureIO(env(), SRC);
    expect(await main(["ls", ...args], io), io.err()).toBe(0);
    expect(io.out()).toMatch(/\nsentiment-logprobs\s+id\s+nlu\s+loglikelihood\s.*\syes\n/);
    expect(io.out()).toMatch(/\nglobal_mmlu_lite\s+en\s.*\sno: data-missing\n/);
    expect(io.out()).toMatch(/\nmt-bench-judge\s+id\s+multi-turn\s+generate\s+average_criteria_score\s+seahelm-criteria \(openai\/gpt-oss-120b\)\s+hf:aisingapore\/MultiTurn-Chat-MT-Bench-Judge\s+yes\n/);
    // NIAH has its generator; this corpus lacks the books and noun list it reads.
    expect(io.out()).toMatch(/\nniah_multikey_8k\s+en\s.*\sseahelm-niah\s+no: data-missing\n/);
    expect(io.out()).toMatch(/why not:\n(.*\n)* {2}niah_multikey_8k\/en reads the local NIAH haystack \(books\) file books\/en\/\*\.txt, which is not there/);

    const rows = await lsJson(args);
    const row = (key: string) => rows.find((r) => r.key === key);
    expect(rows.map((r) => r.key)).toEqual([
      "global_mmlu_lite/en",
      "global_mmlu_lite/id",
      "niah_multikey_8k/en",
      "mt-bench-judge/en",
      "mt-bench-judge/id",
      "sentiment-logprobs/id",
    ]);
    expect(row("global_mmlu_lite/id")).toMatchObject({
      runsHere: true,
      reasons: [],
      competency: "knowledge",
      mode: "generate",
      metric: "normalized_accuracy",
      judge: null,
      judgeModel: null,
      data: "../../config/src/__fixtures__/seahelm_tasks/knowledge/global_mmlu_lite/global_mmlu_lite_id_test.jsonl",
      file: "../../config/src/__fixtures__/seahelm_tasks/knowledge/global_mmlu_lite/config.yaml",
    });
    expect(row("global_mmlu_lite/en")?.reasons).toEqual([
      { code: "data-missing", message: expect.stringContaining("reads the local data file seahelm_tasks/knowledge/global_mmlu_lite/global_mmlu_lite_en_test.jsonl") },
    ]);
    expect(row("sentiment-logprobs/id")).toMatchObject({ runsHere: true, reasons: [], mode: "loglikelihood", data: "hf:aisingapore/NLU-Sentiment-Analysis" });
    expect(row("mt-bench-judge/en")).toMatchObject({
      judge: "seahelm-criteria",
      judgeModel: "openai/gpt-oss-120b",
      metrics: ["seahelm-mt-bench-judge"],
      runsHere: true,
      reasons: [],
    });
  });

  it("names a plugin package that cannot be loaded as the reason, without failing the listing", async () => {
    const tasks = makeSentimentTask(2);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("  metric: normalized_accuracy\n", "  metric: normalized_accuracy\n  yardstick:\n    plugins: [\"@yardstick/no-such-plugin\"]\n"));
    const rows = await lsJson([tasks]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      runsHere: false,
      reasons: [{ code: "missing-plugin-package", message: expect.stringContaining("needs the plugin package @yardstick/no-such-plugin") }],
    });
  });

  it("prints its usage for --help, and a usage error for an unknown flag", async () => {
    const help = captureIO(env(), SRC);
    expect(await main(["ls", "--help"], help)).toBe(0);
    expect(help.out()).toMatch(/^usage: yardstick ls <config-file-or-folder>\.\.\. \[--tasks a,b\] \[--langs x,y\]/);
    expect(help.out()).toContain("--json");
    const bad = captureIO(env(), SRC);
    expect(await main(["ls", RUNNER_TASKS, "--frobnicate"], bad)).toBe(2);
    expect(bad.err()).toMatch(/Unknown option '--frobnicate'/);
    expect(await main(["ls"], captureIO(env(), SRC))).toBe(2);
  });

  it("refuses a path that no dialect reads with one clear message and a non-zero exit", async () => {
    const json = join(SRC, "__fixtures__", "not-a-config", "package.json");
    const io = captureIO(env(), SRC);
    expect(await main(["ls", MIXED, json], io)).toBe(1);
    expect(io.err()).toEqual(
      expect.stringMatching(new RegExp(`^error: ${json.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: no known config dialect reads it \\(expected one of: seahelm — a SEA-HELM config\\.yaml.*; ultraeval — .*\\)\n$`)),
    );
    expect(io.out()).toBe("");
    noStack(io.err());
    const run = captureIO(env(), SRC);
    expect(await main(["run", json, "--model", "baseline:majority"], run)).toBe(1);
    expect(run.err()).toMatch(/no known config dialect reads it/);
    noStack(run.err());
  });
});

/** A real plugin package on disk whose only export is a config dialect for `*.tasks.json` files. */
function writeDialectPlugin(): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), "yardstick-dialect-plugin-"));
  const pkg = join(dir, "node_modules", "yardstick-json-tasks");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "yardstick-json-tasks", type: "module", main: "index.js" }));
  writeFileSync(
    join(pkg, "index.js"),
    `import { readFileSync } from "node:fs";
export const plugins = { dialects: { "json-tasks": {
  specVersion: "v1", id: "json-tasks", description: "a *.tasks.json file",
  detect: (p) => p.endsWith(".tasks.json"),
  async load(p) {
    const doc = JSON.parse(readFileSync(p, "utf8"));
    return doc.tasks.map((t) => ({
      key: t.name + "/" + t.language, name: t.name, language: t.language, competency: "nlu",
      source: { file: p, dialect: "json-tasks" },
      data: { id: "huggingface", options: { repo: t.dataset, name: t.language, split: "eval" } },
      fewshot: 0, prompt: { id: "seahelm-chat", options: { preamble: "", taskTemplate: "{text}", answerTemplate: "{label}", answerTag: "" } },
      mode: "generate", endpoint: "chat", generation: { maxTokens: 8 },
      postprocessors: [], metrics: [{ id: "seahelm-f1acc" }], mainScore: "normalized_accuracy", errorResponses: "replace",
    }));
  },
} } };
`,
  );
  const config = join(dir, "my.tasks.json");
  writeFileSync(config, JSON.stringify({ tasks: [{ name: "plugged", language: "en", dataset: "owner/plugged" }] }));
  return { dir, config };
}

describe("a dialect from a plugin package", () => {
  it("is used by ls and validate once --plugin loads it, and is unknown without it", async () => {
    const { dir, config } = writeDialectPlugin();
    const io = captureIO(env(), dir);
    expect(await main(["ls", "my.tasks.json", "--plugin", "yardstick-json-tasks", "--json"], io), io.err()).toBe(0);
    expect((JSON.parse(io.out()) as { tasks: LsRow[] }).tasks).toEqual([
      expect.objectContaining({ key: "plugged/en", data: "hf:owner/plugged", file: "my.tasks.json", runsHere: true }),
    ]);
    const validate = captureIO(env(), dir);
    expect(await main(["validate", config, "--plugin", "yardstick-json-tasks"], validate), validate.err()).toBe(0);
    expect(validate.out()).toBe("ok: 1 task(s), 1 task-language pair(s)\n");
    const without = captureIO(env(), dir);
    expect(await main(["ls", config], without)).toBe(1);
    expect(without.err()).toMatch(/no known config dialect reads it/);
  });
});

describe("bad plugin options are found before any request", () => {
  const withBadOptions = (): { tasks: string; file: string } => {
    const tasks = makeSentimentTask(2);
    const file = join(tasks, "toy", "config.yaml");
    const ext = "  yardstick:\n    metrics:\n      - id: seahelm-f1acc\n        options: { nullLabel: 42 }\n";
    writeFileSync(file, readFileSync(file, "utf8").replace("  metric: normalized_accuracy\n", `  metric: normalized_accuracy\n${ext}`));
    return { tasks, file };
  };

  it("findUnrunnable calls the metric's checkOptions and names the task, file and options", async () => {
    const { tasks, file } = withBadOptions();
    const loaded = await loadTaskSpecs([tasks]);
    const problems = findUnrunnable(loaded.tasks, createBuiltinRegistry());
    expect(problems.map((p) => p.code)).toEqual(["bad-options"]);
    expect(problems[0]?.error.file).toBe(file);
    expect(problems[0]?.error.message).toMatch(
      /config\.yaml toy: task toy\/en gives the metric "seahelm-f1acc" options it refuses \(metrics\[0\]\.options\): nullLabel: metric seahelm-f1acc: .*string/,
    );
  });

  it("validate --strict reports it and exits 1; ls shows the task as not running here", async () => {
    const { tasks } = withBadOptions();
    const io = captureIO(env());
    expect(await main(["validate", tasks, "--strict"], io)).toBe(1);
    expect(io.err()).toMatch(/^error: bad-options: 1 task\(s\), 1 task-language pair\(s\) cannot run here\n {2}toy \(en\) \S*config\.yaml: gives the metric "seahelm-f1acc" options it refuses/m);
    expect(io.err()).toMatch(/1 task\(s\) are valid, but 1 task-language pair\(s\) cannot run here/);
    noStack(io.err());
    const rows = await lsJson([tasks]);
    expect(rows[0]).toMatchObject({ runsHere: false, reasons: [{ code: "bad-options" }] });
  });

  it("a good option set passes the same check", async () => {
    const tasks = makeSentimentTask(2);
    const loaded = await loadTaskSpecs([tasks]);
    expect(findUnrunnable(loaded.tasks, createBuiltinRegistry())).toEqual([]);
  });
});

describe("yardstick ls KIND: the registry's plugins", () => {
  const lsKinds = async (args: string[], cwd = SRC): Promise<Record<string, PluginRow[]>> => {
    const io = captureIO(env(), cwd);
    expect(await main(["ls", ...args, "--json"], io), io.err()).toBe(0);
    return JSON.parse(io.out()) as Record<string, PluginRow[]>;
  };

  it("lists every built-in metric, provider and dialect with a description and what it needs", async () => {
    const registry = createBuiltinRegistry();
    const { metrics } = await lsKinds(["metrics"]);
    // The built-ins, and the metric packages installed under the naming convention (here the workspace's @yardstick/metric-ifeval).
    expect(metrics!.filter((m) => m.from === "built-in").map((m) => m.id)).toEqual(registry.ids("metrics"));
    expect(metrics!.find((m) => m.id === "ifeval")).toMatchObject({ from: "@yardstick/metric-ifeval", description: expect.stringMatching(/IFEval/) });
    const metric = (id: string) => metrics!.find((m) => m.id === id)!;
    expect(metric("bleu")).toMatchObject({ from: "built-in", needs: [expect.stringMatching(/^text pairs/)] });
    expect(metric("bleu").description).toMatch(/BLEU/);
    expect(metric("seahelm-pairwise-judge").needs[0]).toMatch(/^judge records/);
    expect(metric("seahelm-logprob").needs).toContainEqual(expect.stringMatching(/loglikelihood/));

    const all = await lsKinds(["plugins"]);
    expect(Object.keys(all)).toEqual(["metrics", "providers", "dataloaders", "postprocessors", "judges", "dialects", "prompt-builders"]);
    expect(all.providers!.map((p) => p.id)).toEqual(registry.ids("models"));
    expect(all.judges!.map((p) => p.id)).toEqual(registry.ids("judges"));
    expect(all.dataloaders!.every((d) => d.description !== "" && d.needs.some((n) => n.startsWith("options:")))).toBe(true);
    expect(all.dialects!.find((d) => d.id === "seahelm")!.needs[0]).toMatch(/^detects: .*config\.yaml/);

    const text = captureIO(env(), SRC);
    expect(await main(["ls", "provider", "judges"], text), text.err()).toBe(0);
    expect(text.out()).toMatch(/^providers \(4\)\n/);
    expect(text.out()).toMatch(/openai-compatible .*\n\s+needs: --base-url URL.*loglikelihood/);
    expect(text.out()).toMatch(/anthropic .*\n\s+needs: .*--api-key-env NAME/);
    expect(text.out()).toMatch(/\n\njudges \(5\)\n/);
  });

  it("shows a --plugin package's entries, named by package, with what a plugin provider can do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-ls-plugins-"));
    writeFileSync(
      join(dir, "plug.mjs"),
      `export default {
  metrics: { "my-overlap": { specVersion: "v1", id: "my-overlap", description: "word overlap", textPairs: true, compute: () => ({ scores: {} }) } },
  models: {
    scorer: (o) => ({ specVersion: "v1", id: "scorer", modelId: o.modelId, identity: () => "scorer", generate: async () => ({ text: "" }),
      loglikelihood: async () => ({ logprob: 0, isGreedy: true }) }),
  },
};
`,
    );
    const rows = await lsKinds(["metrics", "providers", "--plugin", "plug.mjs"], dir);
    expect(rows.metrics!.find((m) => m.id === "my-overlap")).toEqual({
      id: "my-overlap",
      description: "word overlap",
      needs: [expect.stringMatching(/^text pairs/)],
      from: "plug.mjs",
    });
    expect(rows.providers!.find((p) => p.id === "scorer")).toMatchObject({ from: "plug.mjs", needs: ["--model scorer:MODEL", "capabilities: generate, loglikelihood"] });
    const text = captureIO(env(), dir);
    expect(await main(["ls", "metrics", "--plugin", "plug.mjs"], text)).toBe(0);
    expect(text.out()).toMatch(/my-overlap \(plug\.mjs\)\s+word overlap/);
  });

  it("reads a folder named like a kind as a config, and refuses kinds mixed with paths or task flags", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-ls-kind-folder-"));
    makeSentimentTask(2, { dir: join(dir, "metrics") });
    const io = captureIO(env(), dir);
    expect(await main(["ls", "metrics", "--json"], io), io.err()).toBe(0);
    expect((JSON.parse(io.out()) as { tasks: LsRow[] }).tasks.map((t) => t.key)).toEqual(["toy/en"]);
    const mixed = captureIO(env(), SRC);
    expect(await main(["ls", "judges", RUNNER_TASKS], mixed)).toBe(2);
    expect(mixed.err()).toMatch(/either config files or folders, or plugin kinds/);
    const flags = captureIO(env(), SRC);
    expect(await main(["ls", "metrics", "--langs", "id"], flags)).toBe(2);
    expect(flags.err()).toMatch(/--langs selects tasks of configs/);
    noStack(flags.err());
  });

  it("a bare word that is neither a path nor a kind is a mistyped kind, with the nearest one", async () => {
    const io = captureIO(env(), SRC);
    expect(await main(["ls", "judgs"], io)).toBe(2);
    expect(io.err()).toContain('ls: "judgs" is neither a config file or folder nor a plugin kind');
    expect(io.err()).toContain("did you mean judges?");
    const path = captureIO(env(), SRC);
    expect(await main(["ls", "./nope"], path)).toBe(1);
    expect(path.err()).toMatch(/config path not found/);
  });
});
