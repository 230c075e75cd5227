import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError } from "@yardstick/core";
import { testDialect } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { seahelmDialect } from "./seahelm-dialect.js";
import { CORPUS_TASKS, FIXTURES, taskYaml, writeTree } from "./test-files.test-helper.js";

const DIALECTS = path.join(FIXTURES, "dialects");
const MIXED = path.join(DIALECTS, "mixed");
const ULTRAEVAL_JSON = path.join(DIALECTS, "other", "ultraeval-task.json");
const OTHER_YAML = path.join(DIALECTS, "other", "settings.yaml");
const BROKEN = path.join(DIALECTS, "broken", "config.yaml");
const BAD_YAML = path.join(DIALECTS, "bad-yaml", "config.yaml");

testDialect("seahelm", seahelmDialect, {
  fixtures: [
    { path: MIXED, name: "a folder with a config and a non-config JSON" },
    { path: path.join(CORPUS_TASKS, "nlu", "sentiment_analysis", "config.yaml"), name: "one corpus file" },
    { path: path.join(CORPUS_TASKS, "nlu"), name: "a corpus folder" },
    { path: path.join(CORPUS_TASKS, "multi_turn"), name: "judged tasks (pairwise and criteria judges)" },
  ],
  otherDialect: [ULTRAEVAL_JSON, OTHER_YAML, path.join(DIALECTS, "other")],
  broken: [BROKEN, { path: path.join(DIALECTS, "broken"), file: BROKEN, name: "a folder holding a broken config" }, BAD_YAML],
});

describe("seahelm detect", () => {
  it("claims config.yaml files and folders holding them, also broken ones (so load can say what is wrong)", async () => {
    expect(await seahelmDialect.detect(path.join(MIXED, "sentiment", "config.yaml"))).toBe(true);
    expect(await seahelmDialect.detect(MIXED)).toBe(true);
    expect(await seahelmDialect.detect(CORPUS_TASKS)).toBe(true);
    expect(await seahelmDialect.detect(BAD_YAML)).toBe(true);
  });

  it("claims a differently named YAML file only when it reads as SEA-HELM tasks", async () => {
    const root = writeTree({ "my-task.yaml": taskYaml("renamed"), "notes.yml": "- a\n- b\n" });
    expect(await seahelmDialect.detect(path.join(root, "my-task.yaml"))).toBe(true);
    expect(await seahelmDialect.detect(path.join(root, "notes.yml"))).toBe(false);
    expect(await seahelmDialect.detect(OTHER_YAML)).toBe(false);
    // task_config.yaml and constants.yaml sit beside the tasks but are not tasks.
    expect(await seahelmDialect.detect(path.join(CORPUS_TASKS, "task_config.yaml"))).toBe(false);
    expect(await seahelmDialect.detect(path.join(CORPUS_TASKS, "constants.yaml"))).toBe(false);
  });

  it("answers false, without throwing, for JSON, binary files, missing paths and folders without configs", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "yardstick-detect-"));
    mkdirSync(path.join(root, "empty"));
    writeFileSync(path.join(root, "config.yaml.gz"), Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00]));
    // A binary file even under the config name is not a SEA-HELM config.
    mkdirSync(path.join(root, "bin"));
    writeFileSync(path.join(root, "bin", "config.yaml"), Uint8Array.from([0x00, 0xff, 0xfe, 0x00, 0x80]));
    expect(await seahelmDialect.detect(ULTRAEVAL_JSON)).toBe(false);
    expect(await seahelmDialect.detect(path.join(MIXED, "results.json"))).toBe(false);
    expect(await seahelmDialect.detect(path.join(root, "config.yaml.gz"))).toBe(false);
    expect(await seahelmDialect.detect(path.join(root, "bin", "config.yaml"))).toBe(false);
    expect(await seahelmDialect.detect(path.join(root, "nope", "config.yaml"))).toBe(false);
    expect(await seahelmDialect.detect(path.join(root, "empty"))).toBe(false);
    expect(await seahelmDialect.detect(path.join(DIALECTS, "other"))).toBe(false);
  });
});

describe("seahelm load", () => {
  it("reads only the config.yaml of a folder that also holds a JSON file", async () => {
    const tasks = await seahelmDialect.load(MIXED);
    expect(tasks.map((t) => t.key)).toEqual(["mini_sentiment/en", "mini_sentiment/id"]);
    expect(tasks[0]?.data).toEqual({ id: "seahelm-local", options: { path: path.join(MIXED, "sentiment", "data", "test.jsonl") } });
    expect(tasks[1]?.data).toMatchObject({ id: "huggingface", options: { repo: "owner/mini-sentiment" } });
    expect(tasks.every((t) => t.source?.dialect === "seahelm")).toBe(true);
  });

  it("filters by task name, aggregation group and language, and selects a suite", async () => {
    const byGroup = await seahelmDialect.load(CORPUS_TASKS, { tasks: ["translations"], languages: ["id"] });
    expect(byGroup.map((t) => t.key).sort()).toEqual(["translation-en-xx/id", "translation-xx-en/id"]);
    // Names this config lacks select nothing instead of failing: loadTasks reports names no path has.
    expect(await seahelmDialect.load(MIXED, { tasks: ["translations"] })).toEqual([]);
    const suite = await seahelmDialect.load(CORPUS_TASKS, { suite: "seahelm", languages: ["th"] });
    expect(suite.map((t) => t.name)).toContain("thai_exam_onet");
    expect(suite.every((t) => t.language === "th")).toBe(true);
    expect(suite.some((t) => t.name === "sentiment-logprobs")).toBe(false);
  });

  it("refuses a suite without a task_config.yaml, and an unknown suite, naming the file", async () => {
    await expect(seahelmDialect.load(MIXED, { suite: "seahelm" })).rejects.toThrow(/no task_config\.yaml for .*mixed/);
    const err = await seahelmDialect.load(CORPUS_TASKS, { suite: "nope" }).catch((e: unknown) => e);
    expect(ConfigError.isInstance(err)).toBe(true);
    expect((err as ConfigError).file).toBe(path.join(CORPUS_TASKS, "task_config.yaml"));
  });

  it("fills the typed fields: unsupported (data-missing), plugins, diagnostics", async () => {
    const [logprobs] = await seahelmDialect.load(CORPUS_TASKS, { tasks: ["sentiment-logprobs"], languages: ["id"] });
    expect(logprobs?.mode).toBe("loglikelihood");
    expect(logprobs?.unsupported).toBeUndefined();
    const root = writeTree({
      "config.yaml": taskYaml("needs_plugin", "  yardstick:\n    metrics: [{ id: my-metric }]\n    plugins: [my-metric-package]\n  fewshot_num_examples: { instruct: 3, base: 3 }\n")
        .replace("filepath: owner/dataset", "filepath: data/missing.jsonl"),
    });
    const [spec] = await seahelmDialect.load(root);
    expect(spec?.plugins).toEqual(["my-metric-package"]);
    expect(spec?.unsupported).toEqual([{ code: "data-missing", message: expect.stringContaining("reads the local data file data/missing.jsonl, which is not there") }]);
    expect(spec?.diagnostics).toEqual([
      { level: "warning", message: "no example_filepath: running 0-shot instead of 3-shot", keyPath: ["needs_plugin", "languages", "id"] },
    ]);
    expect(spec?.extra).not.toHaveProperty("plugins");
    expect(spec?.extra).not.toHaveProperty("notes");
  });

  it("marks a missing examples file only when the task runs few-shot", async () => {
    const yaml = (shots: number) =>
      taskYaml("few_shot", `  fewshot_num_examples: { instruct: ${shots}, base: ${shots} }\n`).replace(
        "      max_tokens: 32\n",
        "      example_filepath: data/missing_examples.jsonl\n      max_tokens: 32\n",
      );
    const [fewShot] = await seahelmDialect.load(writeTree({ "config.yaml": yaml(2) }));
    expect(fewShot?.unsupported).toEqual([
      { code: "data-missing", message: expect.stringContaining("reads the local examples file data/missing_examples.jsonl, which is not there") },
    ]);
    const [zeroShot] = await seahelmDialect.load(writeTree({ "config.yaml": yaml(0) }));
    expect(zeroShot?.unsupported).toBeUndefined();
  });

  it("lists every problem of a broken folder (for validate)", async () => {
    const problems = await seahelmDialect.listProblems(path.join(DIALECTS, "broken"));
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(/config\.yaml:12:\d+ broken_task\.languages\.en\.max_tokens/)]);
    expect(await seahelmDialect.listProblems(MIXED)).toEqual([]);
  });
});
