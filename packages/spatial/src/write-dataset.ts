import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Mode, TASK_NAMES, type TaskName } from "./constants.js";
import { type CanvasRecord, generateCanvas, optionsFingerprint, type ResolvedOptions, resolveOptions } from "./generate.js";
import { toOriginalJson } from "./original-format.js";
import { renderPng } from "./render/png.js";
import { renderSvg } from "./render/svg.js";
import { itemsOf, type SpatialItem } from "./rows.js";
import { type ConfigTask, seahelmConfigYaml, seahelmTaskKey } from "./seahelm-config.js";

export type OutputFormat = "original" | "seahelm" | "ultraeval";

export interface WriteOptions {
  shapes: number;
  count: number;
  seed: string | number;
  mode?: Mode;
  tasks?: readonly TaskName[];
  format?: OutputFormat;
  images?: boolean;
  /** Embed images as data URIs instead of relative paths (SEA-HELM/UltraEval rows). */
  inlineImages?: boolean;
}

export interface WriteSummary {
  outDir: string;
  format: OutputFormat;
  canvases: number;
  files: number;
  /** Rows per written data file (SEA-HELM/UltraEval). */
  rows: Record<string, number>;
  fingerprint: string;
}

/** Files written concurrently while generating; bounds memory and open handles. */
const WRITE_BATCH = 64;

export function seahelmRow(item: SpatialItem, options: ResolvedOptions, image?: string): Record<string, unknown> {
  return {
    id: item.id,
    prompts: [{ description: item.description, question: item.question }],
    label: item.answer,
    ...(image !== undefined ? { image } : {}),
    metadata: {
      task: item.task,
      description_type: item.descriptionType,
      canvas: item.canvas,
      index: item.index,
      n_shapes: options.shapes,
      mode: options.mode,
      seed: options.seed,
      fewshot: item.fewshot,
    },
  };
}

/** UltraEval's make_dataset row shape (passage/question/target_scores/answer) plus ids. */
export function ultraevalRow(item: SpatialItem, image?: string): Record<string, unknown> {
  return {
    id: item.id,
    passage: item.description,
    question: item.question,
    target_scores: {},
    answer: item.answer,
    ...(image !== undefined ? { image } : {}),
    task: item.task,
    description_type: item.descriptionType,
    canvas: item.canvas,
  };
}

/** Generates the dataset and writes it in the chosen layout. Deterministic for fixed options. */
export async function writeDataset(outDir: string, options: WriteOptions): Promise<WriteSummary> {
  const resolved = resolveOptions(options);
  const fingerprint = optionsFingerprint(resolved);
  const format = options.format ?? "original";
  const images = options.images ?? false;
  await mkdir(outDir, { recursive: true });
  if (images) await mkdir(join(outDir, "images"), { recursive: true });

  const buffers = new Map<string, string[]>();
  const rows: Record<string, number> = {};
  const configTasks = new Map<string, ConfigTask>();
  let files = 0;
  let pending: Promise<void>[] = [];
  const write = (path: string, data: string | Buffer) => {
    pending.push(writeFile(path, data));
    files++;
  };

  for (let i = 0; i < resolved.count; i++) {
    const record: CanvasRecord = generateCanvas(resolved, i);
    let pngData: Buffer | undefined;
    if (images) {
      pngData = renderPng(record.shapes);
      write(join(outDir, "images", `${record.name}.png`), pngData);
      write(join(outDir, "images", `${record.name}.svg`), renderSvg(record.shapes));
    }
    if (format === "original") {
      write(join(outDir, `${record.name}.json`), JSON.stringify(toOriginalJson(record), null, 4));
    } else {
      for (const item of itemsOf(record, resolved, fingerprint, images)) {
        const isImage = item.descriptionType === "image";
        const image = !isImage
          ? undefined
          : options.inlineImages
            ? `data:image/png;base64,${pngData!.toString("base64")}`
            : `images/${record.name}.png`;
        const key = seahelmTaskKey(item.task, isImage);
        const file = `${key}.jsonl`;
        configTasks.set(key, { task: item.task, image: isImage, file });
        const line = JSON.stringify(format === "seahelm" ? seahelmRow(item, resolved, image) : ultraevalRow(item, image));
        let buf = buffers.get(file);
        if (buf === undefined) buffers.set(file, (buf = []));
        buf.push(line);
        rows[file] = (rows[file] ?? 0) + 1;
      }
    }
    if (pending.length >= WRITE_BATCH) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);

  if (format !== "original") {
    for (const [file, lines] of buffers) {
      await writeFile(join(outDir, file), `${lines.join("\n")}\n`);
      files++;
    }
    // Config tasks in upstream task order, text before image.
    const ordered = [...configTasks.values()].sort(
      (a, b) => TASK_NAMES.indexOf(a.task) - TASK_NAMES.indexOf(b.task) || Number(a.image) - Number(b.image),
    );
    if (format === "seahelm") {
      await writeFile(
        join(outDir, "config.yaml"),
        seahelmConfigYaml(ordered, { seed: resolved.seed, mode: resolved.mode, shapes: resolved.shapes, fingerprint }),
      );
      files++;
    }
  }
  const manifest = {
    generator: "@yardstick/spatial",
    format,
    fingerprint,
    options: { ...resolved, images },
    rows,
  };
  await writeFile(join(outDir, "spatial-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  files++;
  return { outDir, format, canvases: resolved.count, files, rows, fingerprint };
}
