import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { ConfigError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { detectDialect, loadTasks } from "./load-tasks.js";
import { seahelmDialect } from "./seahelm-dialect.js";
import { CORPUS_TASKS, FIXTURES, taskYaml, writeTree } from "./test-files.test-helper.js";

const MIXED = path.join(FIXTURES, "dialects", "mixed");
const ULTRAEVAL_JSON = path.join(FIXTURES, "dialects", "other", "ultraeval-task.json");
const dialects = [seahelmDialect];

async function configError(p: Promise<unknown>): Promise<ConfigError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ConfigError.isInstance(err)) throw new Error(`expected a ConfigError, got ${String(err)}`);
  return err;
}

describe("detectDialect", () => {
  it("returns the one dialect that claims a path", async () => {
    expect((await detectDialect(MIXED, dialects)).id).toBe("seahelm");
  });

  it("names the path, the known dialects and what each reads when none claims it", async () => {
    const err = await configError(detectDialect(ULTRAEVAL_JSON, dialects));
    expect(err.file).toBe(ULTRAEVAL_JSON);
    expect(err.message).toBe(
      `${ULTRAEVAL_JSON}: no known config dialect reads it (expected one of: seahelm — a SEA-HELM config.yaml, a folder with config.yaml files in it, or another YAML file of SEA-HELM tasks)`,
    );
  });

  it("gives the syntax error of a JSON or YAML file no dialect claims, with its line and column", async () => {
    const dir = writeTree({ "typo.yaml": "tasks:\n  sentiment: [a, b\n", "typo.json": '{"task_name": "x",\n  "path": [1, 2\n', "comma.json": '{"a": 1,}\n' });
    const yaml = await configError(detectDialect(path.join(dir, "typo.yaml"), dialects));
    expect(yaml).toMatchObject({ file: path.join(dir, "typo.yaml"), line: 3, column: 1 });
    expect(yaml.message).toContain("invalid YAML: Flow sequence");
    const json = await configError(detectDialect(path.join(dir, "typo.json"), dialects));
    expect(json).toMatchObject({ file: path.join(dir, "typo.json"), line: 3, column: 1 });
    expect(json.message).toContain("invalid JSON: Expected ',' or ']' after array element");
    expect(await configError(detectDialect(path.join(dir, "comma.json"), dialects))).toMatchObject({ line: 1, column: 9 });
    // A file that parses but is no config of a known dialect still says so.
    expect((await configError(detectDialect(ULTRAEVAL_JSON, dialects))).message).toContain("no known config dialect reads it");
  });

  it("calls a binary file named like a config a binary file, with none of its bytes in the message", async () => {
    const dir = writeTree({});
    const file = path.join(dir, "program.yaml");
    // An executable's first bytes: a NUL and a terminal escape sequence that must not reach the terminal.
    writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x0a, 0x3a, 0x3a, 0x0a]));
    const err = await configError(detectDialect(file, dialects));
    expect(err.message).toBe(`${file}: a binary file, not a config (expected YAML text)`);
  });

  it("says when a path does not exist, and when no dialect is registered", async () => {
    const missing = path.join(FIXTURES, "dialects", "no-such-folder");
    expect((await configError(detectDialect(missing, dialects))).message).toMatch(/config path not found: .*no-such-folder/);
    expect((await configError(detectDialect(MIXED, []))).message).toMatch(/a registered config dialect \(none is\)/);
  });

  it("names every dialect when several claim a path", async () => {
    const twin = { ...seahelmDialect, id: "seahelm-twin" };
    const err = await configError(detectDialect(MIXED, [seahelmDialect, twin]));
    expect(err.message).toContain(`${MIXED}: several config dialects claim it: seahelm, seahelm-twin`);
  });
});

describe("loadTasks", () => {
  it("concatenates the tasks of several paths in path order", async () => {
    const other = writeTree({ "config.yaml": taskYaml("second_task") });
    const tasks = await loadTasks([MIXED, other], { dialects });
    expect(tasks.map((t) => t.key)).toEqual(["mini_sentiment/en", "mini_sentiment/id", "second_task/id"]);
  });

  it("refuses a task key defined in two files, naming both", async () => {
    const a = writeTree({ "config.yaml": taskYaml("same_task") });
    const b = writeTree({ "config.yaml": taskYaml("same_task") });
    const err = await configError(loadTasks([a, b], { dialects }));
    expect(err.message).toContain(`duplicate task key "same_task/id": defined in ${path.join(a, "config.yaml")} and in ${path.join(b, "config.yaml")}`);
  });

  it("keeps a task reached through a folder and a file inside it once", async () => {
    const file = path.join(MIXED, "sentiment", "config.yaml");
    expect((await loadTasks([MIXED, file], { dialects })).map((t) => t.key)).toEqual(["mini_sentiment/en", "mini_sentiment/id"]);
  });

  it("spreads --tasks over the paths and reports a name that no path has", async () => {
    const nlu = path.join(CORPUS_TASKS, "nlu", "sentiment_analysis");
    const tasks = await loadTasks([MIXED, nlu], { dialects, tasks: ["mini_sentiment", "sentiment"], languages: ["id"] });
    expect(tasks.map((t) => t.key)).toEqual(["mini_sentiment/id", "sentiment/id"]);
    const err = await configError(loadTasks([MIXED, nlu], { dialects, tasks: ["sentiment", "nope"] }));
    expect(err.message).toMatch(/unknown task or aggregation group "nope" \(expected one of .*mini_sentiment.*sentiment/);
    // A name that exists, but not in the asked languages, selects nothing without an error.
    expect(await loadTasks([MIXED], { dialects, tasks: ["mini_sentiment"], languages: ["th"] })).toEqual([]);
  });

  it("refuses the whole list when one path is in no known dialect", async () => {
    const err = await configError(loadTasks([MIXED, ULTRAEVAL_JSON], { dialects }));
    expect(err.file).toBe(ULTRAEVAL_JSON);
  });
});
