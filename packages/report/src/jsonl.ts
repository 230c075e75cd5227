import { type JsonlLine, readJsonlLines } from "@yardstick/run-format";

/** Streams the non-blank lines of a JSONL file with their 1-based numbers (`readJsonlLines`, one by one). */
export async function* readLines(path: string): AsyncGenerator<JsonlLine> {
  for await (const batch of readJsonlLines(path)) yield* batch;
}

/** The file name of a task's samples/scores file: the task key with unsafe runs replaced by "_" (run-format docs). */
export function taskFileName(key: string): string {
  return `${key.replace(/[^A-Za-z0-9._-]+/g, "_")}.jsonl`;
}
