/**
 * Streams JSON rows from a local file: `.jsonl` line by line (readline, so large files are never held
 * in memory), `.json` as one array. Bad JSON becomes a DataLoadError with file and line.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
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
  for await (const rows of readRowBatches(file, signal)) yield* rows;
}

/**
 * The rows of `readRows` in batches: one per chunk read of a `.jsonl` file, of up to 1,024 of a
 * `.json` array. With `limit`, lines after the first `limit` rows are not parsed (nor reported as bad JSON).
 */
export async function* readRowBatches(file: string, signal?: AbortSignal, limit?: number): AsyncGenerator<RawRow[]> {
  await assertReadableFile(file);
  if (/\.jsonl$/i.test(file)) yield* readJsonLines(file, signal, limit ?? Number.POSITIVE_INFINITY);
  else if (/\.json$/i.test(file)) yield* readJsonArray(file);
  else throw new DataLoadError("unsupported data file type (expected .jsonl or .json)", { file });
}

async function* readJsonLines(file: string, signal: AbortSignal | undefined, limit: number): AsyncGenerator<RawRow[]> {
  // Lines are split here rather than by readline, whose per-line events and async iterator cost
  // more than parsing the row. Same line breaks as readline with crlfDelay: Infinity: \n, \r\n
  // and a lone \r, also across chunk boundaries.
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  let lineNo = 0;
  let index = 0;
  let rest = "";
  const parse = (text: string): RawRow | undefined => {
    lineNo++;
    if (signal?.aborted) throw signal.reason;
    const trimmed = lineNo === 1 ? text.replace(/^\uFEFF/, "") : text;
    if (trimmed.trim() === "") return undefined;
    let row: unknown;
    try {
      row = JSON.parse(trimmed);
    } catch (e) {
      throw new DataLoadError(`invalid JSON: ${(e as Error).message}`, { file, line: lineNo, cause: e });
    }
    return { row, line: lineNo, index: index++ };
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest === "" ? chunk : rest + chunk;
      const rows: RawRow[] = [];
      let start = 0;
      // Positions of the next \n and \r; each is searched again only once passed (files rarely hold \r).
      let lf = -2;
      let cr = -2;
      for (;;) {
        if (index >= limit) {
          if (rows.length > 0) yield rows;
          return;
        }
        if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
        if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
        const nl = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
        if (nl === -1) break;
        // A \r at the very end may be the first half of a \r\n: wait for the next chunk.
        if (text.charCodeAt(nl) === 13 && nl === text.length - 1) break;
        let r: RawRow | undefined;
        try {
          r = parse(text.slice(start, nl));
        } catch (err) {
          if (rows.length > 0) yield rows; // the rows before a bad line come first, as when streaming row by row
          throw err;
        }
        if (r) rows.push(r);
        start = text.charCodeAt(nl) === 13 && text.charCodeAt(nl + 1) === 10 ? nl + 2 : nl + 1;
      }
      rest = text.slice(start);
      if (rows.length > 0) yield rows;
    }
    // The last line, if the file does not end with a line break (a final lone \r ends a line).
    if (rest.endsWith("\r")) rest = rest.slice(0, -1);
    if (rest !== "" && index < limit) {
      const r = parse(rest);
      if (r) yield [r];
    }
  } finally {
    stream.destroy();
  }
}

/** Line of a character offset, for JSON.parse errors that report a position. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

async function* readJsonArray(file: string): AsyncGenerator<RawRow[]> {
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
  for (let from = 0; from < data.length; from += 1024) {
    const rows: RawRow[] = [];
    for (let i = from; i < Math.min(data.length, from + 1024); i++) rows.push({ row: data[i], line: starts[i] ?? 1, index: i });
    yield rows;
  }
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
