/**
 * UltraEval's output files, written from a run store after scoring, for the tasks that came from
 * UltraEval configs: `<dir>/<task>/config.json` (the run record), `<dir>/<task>/final_metrics.json`
 * (`{task_name, instance_result, overall_result}`), `<dir>/<task>/instance.jsonl` (one line per
 * instance: data, ground_truth, prompt_inputs, raw_outputs, processed_outputs, eval_results,
 * metrics) and `<dir>/_all_results.json` (dataset → task → metric, plus each dataset's
 * `mean_result`, the unweighted mean over its tasks). Which tasks those are, and their run records,
 * the config package says (`ultraEvalTaskFacts`, `ultraEvalRunRecord`).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type UltraEvalTaskFacts, ultraEvalRunRecord, ultraEvalTaskFacts } from "@yardstick/config";
import type { TaskSpec } from "@yardstick/core";
import { RunStore, type SampleRecord, type ScoreRecord, slug } from "@yardstick/engine";
import type { ResponseRecord } from "@yardstick/run-format";
import { makeDirectory } from "@yardstick/core";

/** The folder under a run store that `yardstick run` and `score-run` write the files to. */
export const ULTRAEVAL_OUTPUTS_DIR = "ultraeval";

/** The latest first-turn answer of a sample, with its request as sent. */
interface StoredAnswer {
  key: string;
  texts: string[];
  choiceLogprobs?: number[];
  choiceTokenCounts?: number[];
  prompt?: string;
}

export interface UltraEvalOutputs {
  dir: string;
  /** The task keys written, in run order. */
  tasks: string[];
}

/** After scoring: the files for the UltraEval tasks of the run store at `runDir`, in `<runDir>/ultraeval/`. */
export function writeRunUltraEvalOutputs(runDir: string): Promise<UltraEvalOutputs | undefined> {
  return writeUltraEvalOutputs(new RunStore(runDir), join(runDir, ULTRAEVAL_OUTPUTS_DIR));
}

/** Writes the files for the run's UltraEval tasks into `outDir`; undefined (nothing written) when the run has none. */
export async function writeUltraEvalOutputs(store: RunStore, outDir: string): Promise<UltraEvalOutputs | undefined> {
  const { manifest } = await store.readManifest();
  const tasks: { spec: TaskSpec; facts: UltraEvalTaskFacts }[] = [];
  for (const spec of manifest.tasks as unknown as TaskSpec[]) {
    const facts = ultraEvalTaskFacts(spec);
    if (facts) tasks.push({ spec, facts });
  }
  if (tasks.length === 0) return undefined;
  const answers = await readAnswers(store, new Set(tasks.map((t) => t.spec.key)));
  const summary: Record<string, Record<string, Record<string, number>>> = {};
  for (const { spec, facts } of tasks) {
    // The task name is the folder (as upstream), made safe as the run store makes its file names.
    const taskDir = join(outDir, slug(spec.key));
    await makeDirectory(taskDir);
    const samples = new Map<string, SampleRecord>();
    for await (const s of store.readSamples(spec.key)) samples.set(s.sample, s);
    const scores = (await store.readScores(spec.key)).sort((a, b) => a.index - b.index);
    const lines: string[] = [];
    const perInstance: Record<string, (number | null)[]> = {};
    for (const score of scores) {
      const sample = samples.get(score.sample);
      const answer = answers.get(spec.key)?.get(score.sample);
      if (!sample) continue;
      lines.push(instanceLine(sample, answer, score, facts));
      for (const [metric, value] of Object.entries(score.scores)) (perInstance[metric] ??= []).push(value);
    }
    const overall = Object.fromEntries(Object.entries(perInstance).map(([metric, values]) => [metric, mean(values)]));
    await writeFile(join(taskDir, "instance.jsonl"), lines.map((l) => `${l}\n`).join(""));
    await writeFile(
      join(taskDir, "final_metrics.json"),
      `${JSON.stringify({ task_name: spec.key, instance_result: perInstance, overall_result: overall }, null, 4)}\n`,
    );
    const record = ultraEvalRunRecord(spec, { batchSize: 1, logDir: outDir });
    await writeFile(join(taskDir, "config.json"), `${JSON.stringify(record, null, 4)}\n`);
    (summary[facts.dataset] ??= {})[spec.key] = overall;
  }
  await writeFile(join(outDir, "_all_results.json"), `${JSON.stringify(withDatasetMeans(summary), null, 4)}\n`);
  return { dir: outDir, tasks: tasks.map((t) => t.spec.key) };
}

/** Upstream's `make_table`: each dataset gets `mean_result`, per metric the mean over the tasks that report it. */
function withDatasetMeans(summary: Record<string, Record<string, Record<string, number>>>): Record<string, Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const [dataset, tasks] of Object.entries(summary)) {
    const byMetric: Record<string, number[]> = {};
    for (const metrics of Object.values(tasks)) for (const [m, v] of Object.entries(metrics)) (byMetric[m] ??= []).push(v);
    out[dataset] = { ...tasks, mean_result: Object.fromEntries(Object.entries(byMetric).map(([m, vs]) => [m, mean(vs)])) };
  }
  return out;
}

/** Mean of the values that are there (a metric that could not score an instance gives null). */
function mean(values: readonly (number | null)[]): number {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? Number.NaN : present.reduce((a, b) => a + b, 0) / present.length;
}

/** One pass over responses.jsonl: each sample's latest first-turn generate answer, with the prompt it was sent. */
async function readAnswers(store: RunStore, taskKeys: ReadonlySet<string>): Promise<Map<string, Map<string, StoredAnswer>>> {
  const out = new Map<string, Map<string, StoredAnswer>>();
  for await (const rec of store.readResponses()) {
    if (rec.stage !== "generate" || rec.turn !== 1 || rec.status !== "ok" || !taskKeys.has(rec.task)) continue;
    let bySample = out.get(rec.task);
    if (!bySample) out.set(rec.task, (bySample = new Map()));
    const prior = bySample.get(rec.sample);
    const prompt = promptOf(rec) ?? (prior?.key === rec.key ? prior.prompt : undefined);
    bySample.set(rec.sample, {
      key: rec.key,
      texts: rec.choices?.map((c) => c.text) ?? [],
      ...(rec.choiceLogprobs ? { choiceLogprobs: rec.choiceLogprobs } : {}),
      ...(rec.choiceTokenCounts ? { choiceTokenCounts: rec.choiceTokenCounts } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
    });
  }
  return out;
}

/** The prompt text of a stored request: the completion prompt, the loglikelihood context, or a chat's last user turn. */
function promptOf(rec: ResponseRecord): string | undefined {
  const r = rec.request;
  if (!r) return undefined;
  if (r.kind === "completion") return r.prompt;
  if (r.kind === "loglikelihood") return r.context;
  const user = r.messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : undefined;
}

function instanceLine(sample: SampleRecord, answer: StoredAnswer | undefined, score: ScoreRecord, facts: UltraEvalTaskFacts): string {
  const groundTruth = sample.labelInRaw ? sample.raw.label : sample.label;
  let rawOutputs: unknown[];
  let processed: unknown[];
  if (facts.method === "loglikelihood") {
    // Upstream's ppl postprocess turns logprobs into one NLL per option (lower = likelier).
    const lps = answer?.choiceLogprobs ?? [];
    const counts = answer?.choiceTokenCounts;
    rawOutputs = [lps];
    processed = [
      lps.map((lp, i) => (facts.pplScoring === "general_torch_ppl_norm" && counts?.[i] ? -lp / counts[i]! : -lp)),
    ];
  } else {
    rawOutputs = answer?.texts ?? [];
    processed = Array.isArray(score.prediction) ? score.prediction : [score.prediction];
  }
  const samples = Math.max(1, rawOutputs.length);
  const prompts = answer?.prompt !== undefined ? Array.from({ length: samples }, () => answer.prompt) : [];
  // pass@k keys are the aggregation's output; the rest are the per-instance evaluation results.
  const evalResults = Object.fromEntries(Object.entries(score.scores).filter(([k]) => !k.startsWith("pass@")));
  const order = (sample.metadata as { targetScoresOrder?: unknown } | undefined)?.targetScoresOrder;
  return pythonJson(
    new Ordered([
      ["data", rowInFileOrder(sample.raw, Array.isArray(order) ? (order as string[]) : undefined)],
      ["ground_truth", groundTruth ?? ""],
      ["prompt_inputs", prompts],
      ["raw_outputs", rawOutputs],
      ["processed_outputs", processed],
      ["eval_results", evalResults],
      ["metrics", score.scores],
    ]),
  );
}

/** An object whose members keep the given order when written (JS objects put integer-like keys first). */
class Ordered {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** JSON as Python's `json.dumps` writes it by default: `", "` between items and `": "` after keys. */
function pythonJson(value: unknown): string {
  if (value instanceof Ordered) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(", ")}}`;
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) return pythonJson(new Ordered(Object.entries(value)));
  return JSON.stringify(value) ?? "null";
}

/**
 * The row with `target_scores` in the file's order: a JS object puts integer-like keys ("10", "3")
 * first, so the order the dataloader kept is used to write them back.
 */
function rowInFileOrder(raw: Record<string, unknown>, order: readonly string[] | undefined): Ordered {
  const scores = raw.target_scores;
  return new Ordered(
    Object.entries(raw).map(([k, v]): [string, unknown] =>
      k === "target_scores" && order && typeof scores === "object" && scores !== null
        ? [k, new Ordered(order.map((o) => [o, (scores as Record<string, unknown>)[o]]))]
        : [k, v],
    ),
  );
}
