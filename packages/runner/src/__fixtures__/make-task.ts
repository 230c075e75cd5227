import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { CliIO } from "../io.js";

/** Writes a SEA-HELM-format classification task with `n` rows into a fresh folder; returns the folder. */
export function makeSentimentTask(n: number, options: { dir?: string; labels?: string[] } = {}): string {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "yardstick-task-"));
  const labels = options.labels ?? ["Positive", "Negative", "Neutral"];
  mkdirSync(join(dir, "toy", "data"), { recursive: true });
  writeFileSync(
    join(dir, "toy", "config.yaml"),
    `toy:
  metadata:
    version: 1
  name: toy
  competency: nlu
  metric_file: f1_acc_metric.py
  metric_class: F1AccMetric
  metric: normalized_accuracy
  languages:
    en:
      filepath: data/test.jsonl
      max_tokens: 16
      prompt_template:
        preamble: |-
          Classify the sentence. Answer as "{answer_tag} LABEL".
        task_template: |-
          Sentence: {text}
        answer_template: "{answer_tag} {label}"
        answer_tag: "Answer:"
`,
  );
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    rows.push(JSON.stringify({ id: `s${i}`, prompts: [{ text: `sentence number ${i}` }], label: labels[i % labels.length] }));
  }
  writeFileSync(join(dir, "toy", "data", "test.jsonl"), `${rows.join("\n")}\n`);
  return dir;
}

/** The label the toy task expects for row i, answered by a perfect "model". */
export function toyAnswer(lastUserText: string, labels = ["Positive", "Negative", "Neutral"]): string {
  const i = Number(/sentence number (\d+)/.exec(lastUserText)?.[1] ?? 0);
  return `Answer: ${labels[i % labels.length]}`;
}

export interface CapturedIO extends CliIO {
  out(): string;
  err(): string;
}

export function captureIO(env: NodeJS.ProcessEnv = {}, cwd = process.cwd()): CapturedIO {
  let out = "";
  let err = "";
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, cb) {
        append(String(chunk));
        cb();
      },
    });
  return {
    stdout: sink((s) => {
      out += s;
    }),
    stderr: sink((s) => {
      err += s;
    }),
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}
