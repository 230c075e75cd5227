// Writes a SEA-HELM-format classification task with N rows (the throughput benchmark's input).
import { mkdirSync, writeFileSync, createWriteStream } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";

export const PREAMBLE = 'Classify the sentiment of the sentence. Answer as "{answer_tag} LABEL" with Positive, Negative or Neutral.';
export const LABELS = ["Positive", "Negative", "Neutral"];

export async function makeTask(dir, n) {
  mkdirSync(join(dir, "bench", "data"), { recursive: true });
  writeFileSync(
    join(dir, "bench", "config.yaml"),
    `bench:
  metadata:
    version: 1
  name: bench
  competency: nlu
  metric_file: f1_acc_metric.py
  metric_class: F1AccMetric
  metric: normalized_accuracy
  languages:
    en:
      filepath: data/test.jsonl
      max_tokens: 16
      prompt_template:
        preamble: '${PREAMBLE}'
        task_template: "Sentence: {text}"
        answer_template: "{answer_tag} {label}"
        answer_tag: "Answer:"
`,
  );
  const out = createWriteStream(join(dir, "bench", "data", "test.jsonl"));
  for (let i = 0; i < n; i++) {
    const line = `${JSON.stringify({ id: `s${i}`, prompts: [{ text: `this is benchmark sentence number ${i}, neither good nor bad` }], label: LABELS[i % 3] })}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return dir;
}

/** The chat messages the harness sends for row i (what the bare loop sends too). */
export function messagesFor(i) {
  const preamble = PREAMBLE.replace("{answer_tag}", "Answer:");
  return [{ role: "user", content: `${preamble}\n\nSentence: this is benchmark sentence number ${i}, neither good nor bad` }];
}
