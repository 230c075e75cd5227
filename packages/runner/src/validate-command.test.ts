import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask } from "./__fixtures__/make-task.js";
import { createBuiltinRegistry } from "./builtins.js";
import { main } from "./main.js";
import { findUnrunnable, loadTaskSpecs } from "./tasks.js";

const SRC = fileURLToPath(new URL(".", import.meta.url));
const CORPUS = join(SRC, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks");
/** The corpus tasks scored by an LLM judge. */
const JUDGED_TASKS = [
  "kalahi-judge",
  "healthbench",
  "healthbench_consensus",
  "healthbench_hard",
  "syntax-criteria",
  "aa-lcr",
  "mt-bench",
  "mt-bench-increased-tokens",
  "mt-bench-judge",
  "babyvision",
  "mathvision",
  "mathvision_mini",
];
const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });

describe("yardstick validate", () => {
  it("exits 0 on the corpus and lists each task that cannot run here once, grouped by reason", async () => {
    const io = captureIO(env(), SRC);
    expect(await main(["validate", CORPUS], io), io.err()).toBe(0);
    expect(io.out()).toMatch(/^ok: 487 task\(s\), 1394 task-language pair\(s\); \d+ run here, \d+ cannot \(warnings above\)\n$/);
    const err = io.err();
    const heads = err.split("\n").filter((l) => l.startsWith("warning: "));
    // The 558 logprob twins are loglikelihood tasks now: none is refused for being one.
    expect(heads.map((h) => h.split(":")[1]?.trim())).toEqual(expect.arrayContaining(["data-missing"]));
    expect(heads.filter((h) => h.startsWith("warning: logprobs:"))).toEqual([]);
    // Each task at most once per reason, with its languages.
    const taskLines = err.split("\n").filter((l) => l.startsWith("  "));
    const perReason = new Set<string>();
    let reason = "";
    for (const line of err.split("\n")) {
      if (line.startsWith("warning: ")) reason = line;
      else if (line.startsWith("  ")) {
        const key = `${reason}\0${line.split(" ")[2]}\0${line.split(": ")[0]}`;
        expect(perReason.has(key), line).toBe(false);
        perReason.add(key);
      }
    }
    expect(taskLines.filter((l) => l.startsWith("  sentiment-logprobs "))).toEqual([]);
    // No judge-based task is among them: the SEA-HELM judges and their metrics are built in.
    const judged = taskLines.filter((l) => JUDGED_TASKS.includes(l.trim().split(" ")[0] ?? ""));
    expect(judged).toEqual([]);
    expect(err).not.toMatch(/Judge|-judge"/);
  });

  it("reports a task whose judge plugin is not installed, like any other missing plugin", async () => {
    const { tasks } = await loadTaskSpecs([CORPUS], { tasks: ["kalahi-judge"], requireData: false });
    const task = tasks[0]!;
    expect(findUnrunnable(tasks, createBuiltinRegistry())).toEqual([]);
    const unknown = { ...task, judge: { ...task.judge!, id: "no-such-judge" } };
    const problems = findUnrunnable([unknown], createBuiltinRegistry());
    expect(problems.map((p) => [p.code, p.reason])).toEqual([["missing-plugin", 'needs the judge "no-such-judge", which is not installed']]);
    expect(problems[0]?.error.message).toMatch(/kalahi-judge\/tl needs the judge "no-such-judge", which is not installed; available: .*seahelm-criteria/);
  });

  it("--strict makes the same tasks errors and exits 1", async () => {
    const io = captureIO(env(), SRC);
    expect(await main(["validate", CORPUS, "--strict"], io)).toBe(1);
    expect(io.err()).toMatch(/^error: data-missing: \d+ task\(s\)/m);
    expect(io.err()).toMatch(/487 task\(s\) are valid, but \d+ task-language pair\(s\) cannot run here \(--strict\)\n$/);
  });

  it("a judge prompt naming a field its judge does not fill is an error with file, line and key path", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "yardstick-judged-")), "seahelm_tasks");
    mkdirSync(join(root, "judged"), { recursive: true });
    const kalahi = readFileSync(join(CORPUS, "cultural", "kalahi_judge", "config.yaml"), "utf8");
    writeFileSync(join(root, "judged", "config.yaml"), kalahi.replace("<CRITERION>\n        {keyPointText}", "<CRITERION>\n        {criterion_text}"));
    const io = captureIO(env());
    expect(await main(["validate", root], io)).toBe(1);
    expect(io.err()).toMatch(
      /config\.yaml:\d+:\d+ kalahi-judge\.judge\.judge_prompts\.criteria_prompt: task kalahi-judge: the seahelm-criteria judge \(CriteriaJudgeMetric\) cannot fill this prompt: KeyError: missing key 'criterion_text'/,
    );
    expect(io.err()).toMatch(/^1 problem\(s\) found$/m);
    expect(io.err()).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("a template naming a key the local data rows lack is an error with the row id", async () => {
    const tasks = makeSentimentTask(2);
    const file = join(tasks, "toy", "config.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("Sentence: {text}", "Sentence: {no_such_column}"));
    const io = captureIO(env());
    expect(await main(["validate", tasks], io)).toBe(1);
    expect(io.err()).toMatch(/config\.yaml:\d+:\d+ toy\.languages\.en\.prompt_template\.task_template: task toy\/en: row \S+ of \S+ cannot fill the template: .*no_such_column/);
    expect(io.err()).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("--suite validates only a suite's tasks", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "yardstick-suite-")), "seahelm_tasks");
    mkdirSync(root);
    makeSentimentTask(2, { dir: root });
    writeFileSync(join(root, "task_config.yaml"), "mini:\n  en: [toy]\n");
    const ok = captureIO(env());
    expect(await main(["validate", root, "--suite", "mini"], ok), ok.err()).toBe(0);
    expect(ok.out()).toBe("ok: 1 task(s), 1 task-language pair(s)\n");
    const io = captureIO(env());
    expect(await main(["validate", root, "--suite", "nope"], io)).toBe(1);
    expect(io.err()).toMatch(/unknown suite "nope".*mini/);
  });
});
