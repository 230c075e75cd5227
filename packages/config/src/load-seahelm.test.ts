import { readdirSync } from "node:fs";
import * as path from "node:path";
import { ConfigError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { loadSeaHelmConfigs } from "./load-seahelm.js";
import { CORPUS_TASKS, taskYaml, writeTree } from "./test-files.test-helper.js";
import { validateConfigs } from "./validate.js";

function corpusConfigFiles(): string[] {
  return readdirSync(CORPUS_TASKS, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === "config.yaml")
    .map((e) => path.join(e.parentPath, e.name));
}

async function configError(p: Promise<unknown>): Promise<ConfigError> {
  try {
    await p;
  } catch (e) {
    if (ConfigError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

describe("loadSeaHelmConfigs on the SEA-HELM corpus", () => {
  it("loads all 113 files and 487 task keys from the folder", async () => {
    const loaded = await loadSeaHelmConfigs([CORPUS_TASKS]);
    expect(loaded.files).toHaveLength(113);
    expect(loaded.tasks.size).toBe(487);
    expect(loaded.auxiliaryFiles).toEqual([]);
    const langEntries = [...loaded.tasks.values()].reduce((n, t) => n + Object.keys(t.config.languages).length, 0);
    expect(langEntries).toBe(1394); // languages.<lang> count in the key inventory
    // 191 logprob twins carry use_logprobs; the 15 string "true" values come out as booleans.
    const logprobs = [...loaded.tasks.values()].filter((t) => t.config.use_logprobs !== undefined);
    expect(logprobs).toHaveLength(191);
    expect(logprobs.every((t) => typeof t.config.use_logprobs === "boolean")).toBe(true);
  });

  it("loads every corpus file on its own", async () => {
    const files = corpusConfigFiles();
    expect(files).toHaveLength(113);
    let total = 0;
    for (const file of files) {
      const loaded = await loadSeaHelmConfigs([file]);
      expect(loaded.tasks.size, file).toBeGreaterThan(0);
      total += loaded.tasks.size;
    }
    expect(total).toBe(487);
  });

  it("resolves whole-value references with their type (livecodebench shares languages and fewshot)", async () => {
    const loaded = await loadSeaHelmConfigs([path.join(CORPUS_TASKS, "code_generation/livecodebench/config.yaml")]);
    const v6 = loaded.tasks.get("livecodebench_v6")!.config;
    const v1 = loaded.tasks.get("livecodebench_v1")!.config;
    expect(v1.languages).toEqual(v6.languages);
    expect(v1.fewshot_num_examples).toEqual(v6.fewshot_num_examples);
    expect(v1.metric_class).toBe("LiveCodeBenchMetric");
  });
});

describe("interpolation in files", () => {
  it("keeps types for whole refs, substitutes inside strings, follows chains and nested refs", async () => {
    const root = writeTree({
      "config.yaml": `${taskYaml("base_task", "  aggregation_group: group_a\n  max_n_runs: 3\n")}
copy_task:
  metadata: \${base_task.metadata}
  name: "copy of \${base_task.name} v\${base_task.metadata.version}"
  competency: \${chain_task.competency}
  metric_file: \${base_task.metric_file}
  metric_class: \${base_task.metric_class}
  metric: \${base_task.metric}
  max_n_runs: \${base_task.max_n_runs}
  pick: metric
  nested: \${base_task.\${copy_task.pick}}
  escaped: '\\\${not.a.ref}'
  languages: \${base_task.languages}
chain_task:
  metadata: \${base_task.metadata}
  name: chain
  competency: \${base_task.competency}
  metric_file: x
  metric_class: y
  metric: z
  languages: \${copy_task.languages}
`,
    });
    const loaded = await loadSeaHelmConfigs([root]);
    const copy = loaded.tasks.get("copy_task")!.config;
    expect(copy.max_n_runs).toBe(3);
    expect(typeof copy.max_n_runs).toBe("number");
    expect(copy.metadata).toEqual({ version: 1 });
    expect(copy.name).toBe("copy of base_task v1");
    expect(copy.competency).toBe("nlu");
    expect(copy.nested).toBe("normalized_accuracy");
    expect(copy.escaped).toBe(`\${not.a.ref}`);
    expect(copy.languages.id?.max_tokens).toBe(32);
    expect(loaded.tasks.get("chain_task")!.config.languages.id?.prompt_template.answer_tag).toBe("Answer:");
  });

  it("reports a missing reference with file, line, column and key path", async () => {
    const root = writeTree({
      "config.yaml": `${taskYaml("a_task")}b_task:
  metadata:
    version: 1
  name: b
  competency: \${a_task.no_such_key}
`,
    });
    const err = await configError(loadSeaHelmConfigs([root]));
    const file = path.join(root, "config.yaml");
    expect(err.file).toBe(file);
    expect(err.line).toBe(22);
    expect(err.column).toBe(15);
    expect(err.keyPath).toEqual(["b_task", "competency"]);
    expect(err.message).toContain(`${file}:22:15 b_task.competency:`);
    expect(err.message).toContain('key "no_such_key" not found under a_task');
  });

  it("reports a cycle instead of recursing forever", async () => {
    const root = writeTree({
      "config.yaml": taskYaml("a_task", `  x: \${a_task.y}\n  y: \${a_task.x}\n`),
    });
    const err = await configError(loadSeaHelmConfigs([root]));
    expect(err.message).toMatch(/interpolation cycle/);
    expect(err.line).toBeGreaterThan(0);
  });
});

describe("errors with positions", () => {
  it("a malformed YAML file gives file:line:column and the enclosing key path", async () => {
    const root = writeTree({
      "config.yaml": `bad_task:
  metadata:
    version: 1
  languages:
    id:
      prompt_template:
        answer_tag: Answer: X
        preamble: ok
`,
    });
    const err = await configError(loadSeaHelmConfigs([root]));
    const file = path.join(root, "config.yaml");
    expect(err.message).toMatch(/invalid YAML/);
    expect(err.file).toBe(file);
    expect(err.line).toBe(7);
    expect(err.column).toBe(21);
    // The parser recovers by reading `Answer: X` as a nested mapping, so the path ends inside it.
    expect(err.keyPath.slice(0, 5)).toEqual(["bad_task", "languages", "id", "prompt_template", "answer_tag"]);
    expect(err.message.startsWith(`${file}:7:21 bad_task.languages.id.prompt_template.answer_tag`)).toBe(true);
    expect(err.message).toContain("invalid YAML: Nested mappings are not allowed in compact mappings");
  });

  it("a wrong-type key points at the offending node", async () => {
    const root = writeTree({ "config.yaml": taskYaml("t", "", "id", '"thirty-two"') });
    const err = await configError(loadSeaHelmConfigs([root]));
    const file = path.join(root, "config.yaml");
    expect(err.keyPath).toEqual(["t", "languages", "id", "max_tokens"]);
    expect(err.line).toBe(12);
    expect(err.column).toBe(19);
    expect(err.expected).toBe("number");
    expect(err.message).toContain(`${file}:12:19 t.languages.id.max_tokens:`);
  });

  it("an error inside referenced languages points into the referenced task", async () => {
    const root = writeTree({
      "config.yaml": `${taskYaml("src_task", "", "id", "1.5")}other:
  metadata:
    version: 1
  name: other
  competency: nlu
  metric_file: f
  metric_class: F1AccMetric
  metric: m
  languages: \${src_task.languages}
`,
    });
    const report = await validateConfigs([root]);
    expect(report.ok).toBe(false);
    const other = report.diagnostics.find((d) => d.keyPath[0] === "other");
    expect(other).toMatchObject({ line: 12, column: 19, keyPath: ["other", "languages", "id", "max_tokens"] });
  });

  it("a missing required key is reported at its parent mapping", async () => {
    const root = writeTree({ "config.yaml": taskYaml("t").replace("  metric: normalized_accuracy\n", "") });
    const err = await configError(loadSeaHelmConfigs([root]));
    expect(err.keyPath).toEqual(["t", "metric"]);
    expect(err.message).toMatch(/required key is missing/);
    expect(err.line).toBe(2);
  });

  it("a duplicate task key across files names both files", async () => {
    const root = writeTree({ "a/config.yaml": taskYaml("same"), "b/config.yaml": taskYaml("same") });
    const err = await configError(loadSeaHelmConfigs([root]));
    expect(err.message).toContain(path.join(root, "a/config.yaml"));
    expect(err.message).toContain(path.join(root, "b/config.yaml"));
    expect(err.message).toMatch(/duplicate task key "same"/);
  });

  it("a missing path is a ConfigError", async () => {
    const err = await configError(loadSeaHelmConfigs(["/nonexistent/config.yaml"]));
    expect(err.message).toMatch(/config path not found/);
  });

  it("validateConfigs lists every problem and counts the valid tasks", async () => {
    const root = writeTree({
      "a/config.yaml": taskYaml("good"),
      "b/config.yaml": taskYaml("bad_tokens", "", "id", "-3"),
      "c/config.yaml": "broken: [1, 2\n",
    });
    const report = await validateConfigs([root]);
    expect(report.ok).toBe(false);
    expect(report.taskCount).toBe(1);
    expect(report.diagnostics).toHaveLength(2);
    expect(report.diagnostics.map((d) => path.relative(root, d.file)).sort()).toEqual(["b/config.yaml", "c/config.yaml"]);
    expect((await validateConfigs([CORPUS_TASKS])).ok).toBe(true);
  });
});

describe("cross-file references", () => {
  const tree = () =>
    writeTree({
      "repo/seahelm_tasks/a/config.yaml": `a_task:
  metadata:
    version: 1
  name: a
  competency: nlu
  metric_file: f
  metric_class: F1AccMetric
  metric: m
  languages: \${b_task.languages}
`,
      "repo/seahelm_tasks/b/config.yaml": taskYaml("b_task"),
    });

  it("finds sibling configs under the nearest seahelm_tasks folder", async () => {
    const root = tree();
    const loaded = await loadSeaHelmConfigs([path.join(root, "repo/seahelm_tasks/a/config.yaml")]);
    expect([...loaded.tasks.keys()]).toEqual(["a_task"]);
    expect(loaded.auxiliaryFiles).toEqual([path.join(root, "repo/seahelm_tasks/b/config.yaml")]);
    expect(loaded.tasks.get("a_task")!.config.languages.id?.max_tokens).toBe(32);
  });

  it("without sibling lookup the reference is missing", async () => {
    const root = tree();
    const err = await configError(loadSeaHelmConfigs([path.join(root, "repo/seahelm_tasks/a/config.yaml")], { siblingLookup: false }));
    expect(err.message).toContain('key "b_task" not found at the top level');
  });
});
