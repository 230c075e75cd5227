/**
 * Checks, before a run, that a judged task's `judge:` block holds what its judge needs: the
 * `judge_prompts` in the shape that judge reads, templates that name only the fields the judge fills
 * (formatted as the judge will format them), `classifications` for the criteria judges, and the
 * pairwise keys (`baseline_model`, `judgement_labels`). Each problem is a ConfigError with the file,
 * line and key path of the offending key.
 */
import { ConfigError } from "@yardstick/core";
import type { LoadedConfigs, LoadedTask } from "./load-seahelm.js";
import { pyFormat } from "./python-format.js";
import { isPlainObject } from "./python-str.js";
import { type JudgePromptShape, judgedMetricFor } from "./seahelm-judge.js";

/** One template inside `judge_prompts` and the keyword arguments the judge formats it with. */
interface JudgeTemplate {
  /** Path below `judge_prompts`. */
  at: (string | number)[];
  /** Field names the judge fills. */
  fields: string[];
  /** false: the judge sends it as it is (a system prompt), so only its presence is checked. */
  formatted?: boolean;
  /** The judge works without it (checked only when present). */
  optional?: boolean;
}

/** Number of user turns of a task: MT-Bench style tasks have two (as `toTaskSpecs` sets `turns`). */
function turnsOf(task: LoadedTask): number {
  return task.config.competency === "multi-turn" ? 2 : 1;
}

function pairwiseTemplates(task: LoadedTask, variant: "without-reference" | "with-reference"): JudgeTemplate[] {
  const labels = Object.keys(task.config.judgement_labels ?? {});
  const out: JudgeTemplate[] = [];
  for (let turn = 1; turn <= turnsOf(task); turn++) {
    const fields: string[] = [];
    for (let i = 1; i <= turn; i++) {
      fields.push(`question_${i}`, `answer_a_${i}`, `answer_b_${i}`);
      if (variant === "with-reference") fields.push(`ref_answer_${i}`);
    }
    out.push({ at: [variant, turn - 1, "system_prompt"], fields: labels }, { at: [variant, turn - 1, "prompt_template"], fields });
  }
  return out;
}

function templatesFor(shape: JudgePromptShape, task: LoadedTask): JudgeTemplate[] {
  switch (shape) {
    case "pairwise": {
      const withReference = (task.config.categories_with_reference ?? []).length > 0;
      return [...pairwiseTemplates(task, "without-reference"), ...(withReference ? pairwiseTemplates(task, "with-reference") : [])];
    }
    case "criteria":
      return [
        { at: ["system_prompt"], fields: [], formatted: false },
        { at: ["criteria_prompt"], fields: ["prompt", "response", "keyPointText", "reference_text_block"] },
        // Formatted with the row's label for criteria marked include_reference, into {reference_text_block}.
        { at: ["reference_prompt"], fields: ["reference"], optional: true },
      ];
    case "mt-bench":
      return [
        { at: ["system_prompt"], fields: [], formatted: false },
        ...Array.from({ length: turnsOf(task) }, (_, i) => ({ at: ["criteria_prompt", `turn_${i + 1}`], fields: ["transcript", "response", "keyPointText"] })),
        { at: ["reference_prompt"], fields: ["reference"], optional: true },
      ];
    case "healthbench":
      return [
        { at: ["system_prompt"], fields: [], formatted: false },
        { at: ["criteria_prompt"], fields: ["conversation", "rubric_item"] },
      ];
    case "verdict":
      return [{ at: ["criteria_prompt"], fields: ["question", "official_answer", "candidate_answer"] }];
    case "verdict-babyvision":
      return [{ at: ["criteria_prompt"], fields: ["question", "groundtruth", "modeloutput"] }];
  }
}

/** Judges that map a class label to a score through `classifications`. */
const CLASSIFYING: ReadonlySet<JudgePromptShape> = new Set(["criteria", "mt-bench"]);

export function checkJudgeConfigs(loaded: LoadedConfigs, errors: ConfigError[]): void {
  for (const task of loaded.tasks.values()) {
    const judged = judgedMetricFor(task.config.metric_class);
    if (!judged) continue;
    const reported = new Set<string>();
    const fail = (keyPath: (string | number)[], message: string, expected?: string): void => {
      // A missing turn entry is found once for each of its templates: say it once.
      if (reported.has(message)) return;
      reported.add(message);
      errors.push(new ConfigError(`task ${task.key}: ${message}`, { ...loaded.locate(keyPath), keyPath, ...(expected === undefined ? {} : { expected }) }));
    };
    const judge = task.config.judge;
    const who = `the ${judged.judge} judge (${task.config.metric_class})`;
    if (!judge) {
      fail([task.key], `${task.config.metric_class} is scored by an LLM judge, but the task has no judge block`, "a judge: block with judge_prompts");
      continue;
    }
    const prompts = judge.judge_prompts;
    const promptsPath = [task.key, "judge", "judge_prompts"];
    if (!isPlainObject(prompts)) {
      fail(
        prompts === undefined ? [task.key, "judge"] : promptsPath,
        `${who} needs judge_prompts as a mapping of prompts`,
        judged.shape === "pairwise" ? "without-reference / with-reference lists of {system_prompt, prompt_template}" : "a mapping with criteria_prompt",
      );
    } else {
      for (const t of templatesFor(judged.shape, task)) checkTemplate(prompts, t, promptsPath, who, fail);
    }
    if (CLASSIFYING.has(judged.shape) && Object.keys(judge.classifications ?? {}).length === 0) {
      fail([task.key, "judge"], `${who} needs classifications to score the classes its judge replies with`, "classifications: {CLASS_NAME: score, ...}");
    }
    if (judged.shape === "pairwise") {
      if (task.config.baseline_model === undefined) {
        fail([task.key], `${who} needs baseline_model: the model whose stored answers the judged model is compared with`, "baseline_model: <name in the rows' baselines>");
      }
      if (task.config.judgement_labels === undefined) {
        fail([task.key], `${who} needs judgement_labels: the verdict strings its system prompts name`, "judgement_labels: {A_wins, B_wins, Tie}");
      }
    }
  }
}

function checkTemplate(
  prompts: Record<string, unknown>,
  template: JudgeTemplate,
  promptsPath: (string | number)[],
  who: string,
  fail: (keyPath: (string | number)[], message: string, expected?: string) => void,
): void {
  let value: unknown = prompts;
  for (const [depth, key] of template.at.entries()) {
    const container = value;
    value = typeof key === "number" ? (Array.isArray(container) ? container[key] : undefined) : isPlainObject(container) ? container[key] : undefined;
    if (value === undefined) {
      if (template.optional) return;
      const missing = template.at.slice(0, depth + 1);
      const parent = [...promptsPath, ...template.at.slice(0, depth)];
      fail(parent, `${who} needs judge_prompts.${missing.join(".")}, which is missing`, typeof key === "number" ? `at least ${key + 1} entries (one per turn)` : `a key ${key}`);
      return;
    }
  }
  const keyPath = [...promptsPath, ...template.at];
  if (typeof value !== "string") {
    fail(keyPath, `${who} needs this prompt to be a string`, "a string");
    return;
  }
  if (template.formatted === false) return;
  try {
    pyFormat(value, Object.fromEntries(template.fields.map((f) => [f, ""])));
  } catch (e) {
    if (!ConfigError.isInstance(e)) throw e;
    // The format error names the missing field and the fields this judge fills.
    fail(keyPath, `${who} cannot fill this prompt: ${e.message}`);
  }
}
