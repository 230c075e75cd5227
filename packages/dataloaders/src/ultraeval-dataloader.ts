/**
 * The `ultraeval` dataloader: UltraEval rows as Samples. Each sample carries what its prompt needs:
 * the record (with `target_scores` in file order) and its few-shot examples, drawn as upstream does
 * (`rnd.sample(dataset, k + 1)` from the same file, the current record removed, the first k kept)
 * but with a seeded Python-compatible generator shared by the records in file order, so the same
 * seed gives the same prompts. The label is the transform's `processed_output`; the transforms are
 * injected (`createUltraEvalDataloader({ transforms })`, wired by the runner's composition root from
 * `@yardstick/config`), so this package imports no other plugin package.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ConfigError, type DataloaderContext, type DataloaderV1, DataLoadError, PythonRandom, type Sample, sha256File } from "@yardstick/core";
import { z } from "zod";
import { assertReadableFile } from "./read-rows.js";
import { parseUltraEvalRow, type UltraEvalRow } from "./ultraeval-rows.js";

export const ULTRAEVAL_DATALOADER_ID = "ultraeval";

export const ultraEvalDataOptionsSchema = z.strictObject({
  path: z.string().min(1),
  /** The config's `transform` (a path relative to the UltraEval root): gives the label. */
  transform: z.string().min(1).optional(),
  /** The renamed task name, passed to the transform. */
  taskName: z.string().optional(),
  /** Few-shot examples per record; default: the task's `fewshot`. */
  fewshot: z.int().min(0).optional(),
  fewshotSeed: z.int().min(0).default(1234),
  /** The UltraEval checkout root: where a transform without a port is run from, as Python, by the bridge. */
  root: z.string().min(1).optional(),
  /** Python's `random.Random(seed)` stream: what upstream code would draw with that seed. */
  sampler: z.literal("python-random").default("python-random"),
});

export type UltraEvalDataOptions = z.output<typeof ultraEvalDataOptionsSchema>;

function parseOptions(options: Record<string, unknown>): UltraEvalDataOptions {
  const parsed = ultraEvalDataOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`ultraeval data options: ${issue.message}`, { keyPath: ["data", "options", ...issue.path.map(String)] });
  }
  return parsed.data;
}

/** The part of a ported UltraEval transform the dataloader uses: the gold answer of a record. */
export type UltraEvalLabelTransform = (
  record: UltraEvalRow,
  ctx: { taskName: string; fewshot: number },
) => { processedOutput: string | string[] };

/** What a transform gives for a record: the prompt part, the few-shot gold and the label. */
export interface UltraEvalTransformOutput {
  input: string;
  output: string | string[];
  processedOutput: string | string[];
}

/** The python3 bridge of `@yardstick/config` (`createPythonTransformBridge()`), as this loader uses it. */
export interface UltraEvalTransformBridgeLike {
  status(root: string | undefined, transformPath: string): { ok: true } | { ok: false; reason: string };
  run(request: {
    root: string;
    transformPath: string;
    record: UltraEvalRow;
    ctx: { taskName: string; fewshot: number };
    task?: string;
    seed?: number;
  }): Promise<UltraEvalTransformOutput>;
}

export interface UltraEvalDataloaderSettings {
  /** The ported transforms by config path (`createUltraEvalTransforms(...)` of `@yardstick/config`), and the bridge for the rest. */
  transforms: { get(transformPath: string): UltraEvalLabelTransform | undefined; readonly bridge?: UltraEvalTransformBridgeLike };
}

/** What the `ultraeval` prompt builder reads from `sample.prompts[0]`. */
export interface UltraEvalPromptVars {
  record: UltraEvalRow;
  fewshot: UltraEvalRow[];
  /** For a transform without a port: what the Python file gave for the record and each example, in order. */
  transformed?: { record: UltraEvalTransformOutput; fewshot: UltraEvalTransformOutput[] };
}

async function readAllRows(file: string, signal: AbortSignal | undefined): Promise<UltraEvalRow[]> {
  await assertReadableFile(file);
  let text: string;
  try {
    text = await readFile(file, { encoding: "utf8", ...(signal ? { signal } : {}) });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new DataLoadError(`cannot read the data file: ${(cause as Error).message}`, { file, cause });
  }
  const rows: UltraEvalRow[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() !== "") rows.push(parseUltraEvalRow(line.trim(), { file, line: i + 1 }));
  });
  return rows;
}

/** Few-shot picks for every row in file order, from one generator (upstream's `construct_input` loop). */
export function selectFewshot(rows: readonly UltraEvalRow[], k: number, seed: number): UltraEvalRow[][] {
  if (k === 0) return rows.map(() => []);
  const rnd = new PythonRandom(seed);
  return rows.map((row) => {
    if (k + 1 > rows.length) {
      throw new DataLoadError(`${k}-shot needs at least ${k + 1} rows in the file (the examples come from the same file), it has ${rows.length}`);
    }
    return rnd
      .sample(rows, k + 1)
      .filter((x) => !isDeepStrictEqual(x.fields, row.fields))
      .slice(0, k);
  });
}

type LabelSource = { kind: "port"; transform: UltraEvalLabelTransform } | { kind: "bridge"; bridge: UltraEvalTransformBridgeLike; root: string } | undefined;

/** The port of the options' transform, else the python3 bridge when it can run the file; else a clear error. */
function labelSource(opts: UltraEvalDataOptions, settings: UltraEvalDataloaderSettings): LabelSource {
  if (opts.transform === undefined) return undefined;
  const transform = settings.transforms.get(opts.transform);
  if (transform) return { kind: "port", transform };
  const bridge = settings.transforms.bridge;
  const status = bridge?.status(opts.root, opts.transform);
  if (bridge && status?.ok && opts.root !== undefined) return { kind: "bridge", bridge, root: opts.root };
  const why = !bridge ? "no python3 bridge is configured" : status && !status.ok ? `the python3 bridge cannot run it: ${status.reason}` : "no UltraEval root was given";
  throw new ConfigError(`ultraeval data options: the transform ${opts.transform} has no TypeScript port, and ${why}`, { keyPath: ["data", "options", "transform"] });
}

/** Every row through the Python transform (calls pipelined over the one worker); few-shot examples are rows, so each runs once. */
async function bridgeRows(
  rows: readonly UltraEvalRow[],
  source: { bridge: UltraEvalTransformBridgeLike; root: string },
  opts: UltraEvalDataOptions,
  ctx: { taskName: string; fewshot: number },
  file: string,
  configFile: string | undefined,
): Promise<Map<UltraEvalRow, UltraEvalTransformOutput>> {
  // Errors name the task and the config it comes from.
  const task = [ctx.taskName, configFile && `(${configFile})`].filter(Boolean).join(" ") || undefined;
  const results = await Promise.all(
    rows.map((record, index) =>
      source.bridge
        .run({ root: source.root, transformPath: opts.transform!, record, ctx, ...(task ? { task } : {}), seed: opts.fewshotSeed })
        .catch((cause: Error) => {
          throw new DataLoadError(`record ${index}: ${cause.message}`, { file, cause });
        }),
    ),
  );
  return new Map(rows.map((row, i) => [row, results[i]!]));
}

export async function* loadUltraEval(
  options: Record<string, unknown>,
  ctx: DataloaderContext,
  settings: UltraEvalDataloaderSettings,
): AsyncGenerator<Sample> {
  const opts = parseOptions(options);
  const source = labelSource(opts, settings);
  const file = path.resolve(ctx.baseDir ?? process.cwd(), opts.path);
  // The whole file is read: few-shot examples are drawn from all of it.
  const rows = await readAllRows(file, ctx.signal);
  const k = opts.fewshot ?? ctx.task?.fewshot ?? 0;
  const taskName = opts.taskName ?? ctx.task?.name ?? "";
  if (k > 0 && k + 1 > rows.length) {
    const task = ctx.task?.key ?? taskName;
    throw new DataLoadError(`task ${task}: ${k}-shot needs at least ${k + 1} rows in the file (the examples come from the same file), it has ${rows.length}`, {
      file,
    });
  }
  const picks = selectFewshot(rows, k, opts.fewshotSeed);
  const bridged = source?.kind === "bridge" ? await bridgeRows(rows, source, opts, { taskName, fewshot: k }, file, ctx.task?.source?.file) : undefined;
  for (const [index, row] of rows.entries()) {
    ctx.signal?.throwIfAborted();
    const vars: UltraEvalPromptVars = { record: row, fewshot: picks[index]! };
    const sample: Sample = {
      id: String(index),
      prompts: [vars as unknown as Record<string, unknown>],
      metadata: { targetScoresOrder: row.targetScores.map(([key]) => key) },
      raw: row.fields,
    };
    if (bridged) {
      const own = bridged.get(row)!;
      vars.transformed = { record: own, fewshot: vars.fewshot.map((ex) => bridged.get(ex)!) };
      sample.label = own.processedOutput;
    } else if (source?.kind === "port") {
      try {
        sample.label = source.transform(row, { taskName, fewshot: k }).processedOutput;
      } catch (cause) {
        throw new DataLoadError(`record ${index}: transform ${opts.transform}: ${(cause as Error).message}`, { file, cause });
      }
    }
    yield sample;
  }
}

export function createUltraEvalDataloader(settings: UltraEvalDataloaderSettings): DataloaderV1 {
  return {
    specVersion: "v1",
    id: ULTRAEVAL_DATALOADER_ID,
    load: (options, ctx = {}) => loadUltraEval(options, ctx, settings),
    async fingerprint(options, ctx = {}) {
      const file = path.resolve(ctx.baseDir ?? process.cwd(), parseOptions(options).path);
      await assertReadableFile(file);
      return `sha256:${await sha256File(file, ctx.signal)}`;
    },
    checkOptions: (options) => void labelSource(parseOptions(options), settings),
  };
}
