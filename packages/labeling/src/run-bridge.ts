import { ConfigError } from "@yardstick/core";
import type { LoadedTask } from "./data-folder.js";
import { rubricJudgement } from "./rubric-feedback.js";
import type { Sample } from "./schemas.js";
import type { DoneRow } from "./store.js";

/** What import needs of a run store's answers (the runner reads them through @yardstick/report's readRun). */
export interface RunAnswers {
  /** The run's fingerprint: recorded (hidden) in every sample so labels can go back to it. */
  fingerprint: string;
  samples: readonly RunAnswer[];
}

export interface RunAnswer {
  task: string;
  id: string;
  request?: { kind: string; messages?: readonly { role: string; content: unknown }[]; prompt?: string };
  response?: string;
}

/** Metadata keys import writes; `run` is hidden so labelers cannot tell the models apart. */
export const HIDDEN_RUN_KEYS = ["run", "slot_order"] as const;

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "object" && part && "text" in part ? String((part as { text: unknown }).text) : "[non-text part]")).join("");
  }
  return JSON.stringify(content);
}

function toSample(answer: RunAnswer, fingerprint: string, slot: string, order: string): Sample | undefined {
  if (answer.response === undefined || !answer.request) return undefined;
  const metadata = { task: answer.task, sample: answer.id, run: fingerprint, slot_order: order };
  const id = `${answer.task}/${answer.id}${slot}`;
  if (answer.request.kind === "chat" && answer.request.messages) {
    const roles = new Set(["system", "user", "assistant"]);
    const prompt = answer.request.messages.map((m) => ({
      role: (roles.has(m.role) ? m.role : "user") as "system" | "user" | "assistant",
      content: contentText(m.content),
    }));
    return { type: "chat_completion", id, metadata, prompt, completion: [{ role: "assistant", content: answer.response }] };
  }
  if (answer.request.kind === "completion" && typeof answer.request.prompt === "string") {
    return { type: "text_completion", id, metadata, prompt: answer.request.prompt, completion: answer.response };
  }
  return undefined; // loglikelihood calls have no text answer to judge
}

/** A small seeded PRNG (mulberry32): the A/B order of a comparison is random but reproducible. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A Quest dataset from one run (one sample a line) or two (both answers to the same prompt on a
 * line, in random order; the order is recorded in the hidden `slot_order` metadata). Samples
 * without a text answer, or answered by only one of two runs, are left out and counted.
 */
export function datasetFromRuns(runs: readonly RunAnswers[], options: { seed?: number; task?: string } = {}): { jsonl: string; lines: number; skipped: number } {
  if (runs.length < 1 || runs.length > 2) throw new ConfigError("import: give one run (single task) or two runs (comparison)");
  const random = seeded(options.seed ?? 1);
  const wanted = (a: RunAnswer) => options.task === undefined || a.task === options.task;
  const [first, second] = runs as [RunAnswers, RunAnswers | undefined];
  const others = new Map((second?.samples ?? []).filter(wanted).map((a) => [`${a.task}\u0000${a.id}`, a]));
  const lines: Sample[][] = [];
  let skipped = 0;
  for (const answer of first.samples.filter(wanted)) {
    if (!second) {
      const s = toSample(answer, first.fingerprint, "", "");
      if (s) lines.push([s]);
      else skipped++;
      continue;
    }
    const other = others.get(`${answer.task}\u0000${answer.id}`);
    const flip = random() < 0.5;
    const order = flip ? "B,A" : "A,B";
    const a = other && toSample(answer, first.fingerprint, flip ? "#2" : "#1", order);
    const b = other && toSample(other, second.fingerprint, flip ? "#1" : "#2", order);
    if (!a || !b) {
      skipped++;
      continue;
    }
    lines.push(flip ? [b, a] : [a, b]);
  }
  if (lines.length === 0) throw new ConfigError(`import: no ${options.task ? `answers of task ${options.task}` : "answers"} to label in ${runs.length === 2 ? "both runs" : "the run"}`);
  const types = new Set(lines.flat().map((s) => s.type));
  if (types.size > 1) throw new ConfigError("import: the run mixes chat and completion answers; import one task at a time (--run-task)");
  const meta = { total_samples: lines.length * runs.length, sample_type: [...types][0], samples_per_line: runs.length, hidden_metadata: [...HIDDEN_RUN_KEYS] };
  return { jsonl: [meta, ...lines].map((l) => JSON.stringify(l)).join("\n") + "\n", lines: lines.length, skipped };
}

/** A run-store response record of the `label` stage (docs/run-format.md), one per labeler and sample. */
export interface LabelRecord {
  task: string;
  sample: string;
  turn: 1;
  stage: "label";
  call: string;
  status: "ok";
  key: string;
  promptHash: string;
  cached: false;
  judgement: Record<string, unknown>;
  time: string;
}

/**
 * The labels of an imported task as `label`-stage records, grouped by the run (fingerprint) each
 * sample came from. `judgement` holds the feedback, the labeling task, the dataset line, and the
 * sample's position among the line's samples (for a comparison, 0 = shown first); for a rubric task
 * also the chosen `label`, its `score` and the `rubric` id, as a rubric judge writes them.
 */
export function labelRecords(task: LoadedTask, rows: readonly DoneRow[]): Map<string, LabelRecord[]> {
  const out = new Map<string, LabelRecord[]>();
  for (const row of rows) {
    const item = task.itemByLine.get(row.item);
    if (!item) continue;
    const feedback = JSON.parse(row.feedback) as Record<string, unknown>;
    item.samples.forEach((s, position) => {
      const m = s.metadata ?? {};
      if (typeof m.run !== "string" || typeof m.task !== "string" || typeof m.sample !== "string") return;
      const record: LabelRecord = {
        task: m.task,
        sample: m.sample,
        turn: 1,
        stage: "label",
        call: row.labeler,
        status: "ok",
        key: `label:${task.id}:${row.item}:${row.labeler}`,
        promptHash: "",
        cached: false,
        judgement: { ...rubricJudgement(task.def.feedback, feedback), feedback, labelTask: task.id, line: row.item, position, of: item.samples.length, sampleIds: item.samples.map((x) => x.id) },
        time: row.serverTime,
      };
      const list = out.get(m.run) ?? [];
      list.push(record);
      out.set(m.run, list);
    });
  }
  return out;
}
