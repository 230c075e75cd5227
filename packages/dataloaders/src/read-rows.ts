/**
 * Streams JSON rows from a local file: `.jsonl` line by line (readline, so large files are never held
 * in memory), `.json` as one array. Bad JSON becomes a DataLoadError with file and line.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { DataLoadError } from "@yardstick/core";

export interface RawRow {
  row: unknown;
  /** 1-based line of the row (`.jsonl`), or of the array element's start (`.json`). */
  line: number;
  /** 0-based position of the row in the file. */
  index: number;
}

export async function assertReadableFile(file: string): Promise<void> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch {
    throw new DataLoadError(`data file not found: ${file}`, { file });
  }
  if (!info.isFile()) throw new DataLoadError(`data path is not a file: ${file}`, { file });
}

export async function* readRows(file: string, signal?: AbortSignal): AsyncGenerator<RawRow> {
  await assertReadableFile(file);
  if (/\.jsonl$/i.test(file)) yield* readJsonLines(file, signal);
  else if (/\.json$/i.test(file)) yield* readJsonArray(file);
  else throw new DataLoadError("unsupported data file type (expected .jsonl or .json)", { file });
}

async function* readJsonLines(file: string, signal?: AbortSignal): AsyncGenerator<RawRow> {
  const stream = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  let index = 0;
  try {
    for await (const text of lines) {
      lineNo++;
      if (signal?.aborted) throw signal.reason;
      const trimmed = lineNo === 1 ? text.replace(/^\uFEFF/, "") : text;
      if (trimmed.trim() === "") continue;
      let row: unknown;
      try {
        row = JSON.parse(trimmed);
      } catch (e) {
        throw new DataLoadError(`invalid JSON: ${(e as Error).message}`, { file, line: lineNo, cause: e });
      }
      yield { row, line: lineNo, index: index++ };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** Line of a character offset, for JSON.parse errors that report a position. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

async function* readJsonArray(file: string): AsyncGenerator<RawRow> {
  const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const lineMatch = /line (\d+)/.exec(message);
    const posMatch = /position (\d+)/.exec(message);
    const line = lineMatch ? Number(lineMatch[1]) : posMatch ? lineOf(text, Number(posMatch[1])) : undefined;
    throw new DataLoadError(`invalid JSON: ${message}`, { file, ...(line === undefined ? {} : { line }), cause: e });
  }
  if (!Array.isArray(data)) throw new DataLoadError("a .json data file must hold an array of rows", { file, line: 1 });
  // Element start lines are found by a light scan of top-level array items.
  const starts = elementStartLines(text);
  for (let i = 0; i < data.length; i++) yield { row: data[i], line: starts[i] ?? 1, index: i };
}

function elementStartLines(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let inString = false;
  let line = 1;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectValue && c !== undefined && !/\s/.test(c) && c !== "]") {
      out.push(line);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectValue = true;
  }
  return out;
}
