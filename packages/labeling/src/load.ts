import { readFileSync } from "node:fs";
import { ConfigError, DataLoadError } from "@yardstick/core";
import type { z } from "zod";
import {
  type DatasetMeta,
  DatasetMetaSchema,
  type ResultLine,
  ResultLineSchema,
  type Sample,
  SampleSchema,
  type TaskDef,
  TaskSchema,
} from "./schemas.js";
import { withRubric } from "./rubric-feedback.js";

/** The first zod issue as `key.path: message`, the form every error of this package uses. */
export function firstIssue(error: z.ZodError): { keyPath: (string | number)[]; message: string } {
  const issue = error.issues[0];
  if (!issue) return { keyPath: [], message: "invalid" };
  return { keyPath: issue.path.filter((p): p is string | number => typeof p !== "symbol"), message: issue.message };
}

function parseJson(text: string, file: string, line?: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`not valid JSON: ${(err as Error).message}`, { file, ...(line ? { line } : {}) });
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new DataLoadError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file });
  }
}

/** Parses a task document; `file` only names it in errors. */
export function parseTask(value: unknown, file: string): TaskDef {
  const r = TaskSchema.safeParse(value);
  if (!r.success) {
    const { keyPath, message } = firstIssue(r.error);
    throw new ConfigError(message, { file, keyPath });
  }
  return r.data;
}

/**
 * Reads a task file; a task naming a `rubric` gets the rubric's question as a feedback item, read
 * from `resolveRubric(name)` (default: beside the task file).
 */
export function loadTaskFile(file: string, resolveRubric?: (name: string) => string): TaskDef {
  return withRubric(parseTask(parseJson(readText(file), file), file), file, resolveRubric);
}

/** One labeling item: a data line of the dataset (1-based file line) and its samples. */
export interface DatasetItem {
  line: number;
  samples: Sample[];
}

export interface Dataset {
  meta: DatasetMeta;
  items: DatasetItem[];
}

/**
 * Reads a dataset JSONL strictly: unlike Quest, which skips bad lines with console.error, every
 * bad line is an error naming file, line and key path, and sample ids must be unique (the docs
 * require it; assignment and results rely on it). `total_samples` is not checked: Quest's own
 * converter writes the row count, not the line count.
 */
export function parseDataset(text: string, file: string): Dataset {
  const lines = text.split("\n");
  let meta: DatasetMeta | undefined;
  const items: DatasetItem[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === "") continue;
    const lineNo = i + 1;
    const value = parseJson(raw, file, lineNo);
    if (!meta) {
      const r = DatasetMetaSchema.safeParse(value);
      if (!r.success) {
        const { keyPath, message } = firstIssue(r.error);
        throw new ConfigError(`metadata line: ${message}`, { file, line: lineNo, keyPath });
      }
      meta = r.data;
      continue;
    }
    if (!Array.isArray(value)) throw new ConfigError("a data line must be a JSON array of samples", { file, line: lineNo });
    if (value.length !== meta.samples_per_line) {
      throw new ConfigError(`has ${value.length} samples, samples_per_line is ${meta.samples_per_line}`, {
        file,
        line: lineNo,
      });
    }
    const samples: Sample[] = [];
    value.forEach((v, j) => {
      const r = SampleSchema.safeParse(v);
      if (!r.success) {
        const { keyPath, message } = firstIssue(r.error);
        throw new ConfigError(message, { file, line: lineNo, keyPath: [j, ...keyPath] });
      }
      if (r.data.type !== meta?.sample_type) {
        throw new ConfigError(`sample type "${r.data.type}" differs from sample_type "${meta?.sample_type}"`, {
          file,
          line: lineNo,
          keyPath: [j, "type"],
        });
      }
      const earlier = seen.get(r.data.id);
      if (earlier !== undefined) {
        throw new ConfigError(`duplicate sample id "${r.data.id}" (first on line ${earlier})`, {
          file,
          line: lineNo,
          keyPath: [j, "id"],
        });
      }
      seen.set(r.data.id, lineNo);
      samples.push(r.data);
    });
    items.push({ line: lineNo, samples });
  }
  if (!meta) throw new ConfigError("empty dataset: the first line must be the metadata object", { file });
  return { meta, items };
}

export function loadDatasetFile(file: string): Dataset {
  return parseDataset(readText(file), file);
}

/** Reads a results JSONL (Quest's or ours), every line checked. */
export function parseResults(text: string, file: string): ResultLine[] {
  const out: ResultLine[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    const r = ResultLineSchema.safeParse(parseJson(raw, file, i + 1));
    if (!r.success) {
      const { keyPath, message } = firstIssue(r.error);
      throw new ConfigError(message, { file, line: i + 1, keyPath });
    }
    out.push(r.data);
  });
  return out;
}

export function loadResultsFile(file: string): ResultLine[] {
  return parseResults(readText(file), file);
}

/** A sample as a labeler sees it: metadata keys named in `hidden_metadata` removed. */
export function visibleSample(sample: Sample, hidden: readonly string[]): Sample {
  if (!sample.metadata || hidden.length === 0) return sample;
  const metadata = Object.fromEntries(Object.entries(sample.metadata).filter(([k]) => !hidden.includes(k)));
  return { ...sample, metadata };
}
