// A config dialect of this example, loaded with `--plugin examples/judged/rubric-task-dialect.mjs`:
// a `*.rubric-task.json` file is one task whose answers the built-in `rubric` judge scores with a
// rubric.yaml. SEA-HELM configs have no rubric-judged metric class, so this small dialect is how a
// project adds its own task format; everything it names (the seahelm-local dataloader, the
// seahelm-chat prompt builder, the rubric judge and the rubric-judge metric) is built in.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "@yardstick/core";

const SUFFIX = ".rubric-task.json";
const KEYS = { name: "string", language: "string", data: "string", template: "string", max_tokens: "number", rubric: "string", judge_model: "string" };
const REQUIRED = ["name", "language", "data", "template", "rubric"];

function readTask(file) {
  let config;
  try {
    config = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`cannot read the rubric task: ${e instanceof Error ? e.message : String(e)}`, { file, expected: "a JSON object" });
  }
  for (const key of REQUIRED) if (config[key] === undefined) throw new ConfigError(`missing key ${key}`, { file, keyPath: [key], expected: `a ${KEYS[key]}` });
  for (const [key, value] of Object.entries(config)) {
    if (!(key in KEYS)) throw new ConfigError(`unknown key ${key}`, { file, keyPath: [key], expected: `one of ${Object.keys(KEYS).join(", ")}` });
    if (typeof value !== KEYS[key]) throw new ConfigError(`${key} must be a ${KEYS[key]}`, { file, keyPath: [key], expected: `a ${KEYS[key]}` });
  }
  return config;
}

export const rubricTaskDialect = {
  specVersion: "v1",
  id: "rubric-task",
  description: `a ${SUFFIX} file: one task judged with a rubric.yaml (examples/judged)`,
  detect: (path) => path.endsWith(SUFFIX),
  async load(path) {
    const config = readTask(path);
    const folder = dirname(path);
    const data = resolve(folder, config.data);
    if (!existsSync(resolve(folder, config.rubric))) {
      throw new ConfigError(`the rubric ${resolve(folder, config.rubric)} does not exist`, { file: path, keyPath: ["rubric"], expected: "a rubric.yaml path relative to this file" });
    }
    return [
      {
        key: `${config.name}/${config.language}`,
        name: config.name,
        language: config.language,
        competency: "rubric",
        source: { file: path, dialect: "rubric-task" },
        data: { id: "seahelm-local", options: { path: data } },
        // A missing data file makes the task unable to run (named by validate and ls), not a crash.
        ...(existsSync(data) ? {} : { unsupported: [{ code: "data-missing", message: `data file not found: ${data}` }] }),
        fewshot: 0,
        prompt: { id: "seahelm-chat", options: { preamble: "", taskTemplate: config.template, answerTemplate: "", answerTag: "" } },
        mode: "generate",
        endpoint: "chat",
        generation: { maxTokens: config.max_tokens ?? 256 },
        postprocessors: [],
        metrics: [{ id: "rubric-judge" }],
        // The rubric path is read relative to this file (source.file) by the rubric judge.
        judge: { id: "rubric", options: { rubric: config.rubric }, generation: { temperature: 0, maxTokens: 256 }, ...(config.judge_model ? { model: config.judge_model } : {}) },
        mainScore: "normalized_score",
        errorResponses: "replace",
      },
    ];
  },
};

export const plugins = { dialects: { "rubric-task": rubricTaskDialect } };
