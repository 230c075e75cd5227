import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { type CliCommandSpec, ConfigError, DataLoadError, defineFlags, formatCommandHelp, formatCommandsHelp, helpWidth, parseArgsErrorMessage, parseArgsOptions, YardstickError } from "@yardstick/core";
import { COMBINATION_COUNT, TASK_NAMES, type TaskName } from "./constants.js";
import { type OutputFormat, writeDataset } from "./write-dataset.js";

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

const GENERATE_FLAGS = defineFlags({
  shapes: { type: "string", value: "N", required: true, description: "shapes on each canvas (at least 1)" },
  count: { type: "string", value: "M", required: true, description: "canvases to generate (at least 1)" },
  out: { type: "string", value: "DIR", required: true, description: "the folder to write" },
  seed: { type: "string", value: "S", default: "0", description: "seed of the generator" },
  format: { type: "string", value: "original|seahelm|ultraeval", default: "original", description: "the layout of the files written" },
  mode: { type: "string", value: "fixed|compat", default: "fixed", description: "compat keeps upstream's behaviour; fixed corrects it (see the spatial README)" },
  images: { type: "boolean", description: "also draw each canvas (images/NAME.png and .svg) and refer to it from the rows" },
  "inline-images": { type: "boolean", description: "embed the images in SEA-HELM/UltraEval rows as data URIs instead of relative paths" },
  tasks: { type: "string", value: "existence,count,...", default: "every task", description: `only these tasks (${TASK_NAMES.join(", ")})` },
  workers: { type: "string", value: "N", default: "for 500+ canvases: one per core (up to 4) for the original layout or images; up to 4 on 4+ cores for the others; else 1", description: "threads generating: the main thread and N-1 worker threads for the original layout or images, N worker threads for the others (the output does not depend on it)" },
  "few-shot": { type: "boolean", description: "append each question's few-shot pairs to its description, as upstream's loader does with -f" },
});

const DESCRIBE_FLAGS = defineFlags({
  mode: { type: "string", value: "compat|fixed", default: "compat, as the original files", description: "the question logic the files were written with" },
});

const AUDIT_FLAGS = defineFlags({
  json: { type: "boolean", description: "print the audit as JSON" },
});

/** The help of `yardstick spatial`: each subcommand's flags, from the tables its parser uses. */
export const SPATIAL_HELP: readonly CliCommandSpec[] = [
  { command: "yardstick spatial generate", summary: "Generates the spatial-reasoning benchmark: canvases of shapes and questions about them.", flags: GENERATE_FLAGS },
  {
    command: "yardstick spatial describe",
    summary: "Prints the upstream descriptions of the canvases of upstream-format files, one JSON line per file.",
    positionals: [{ name: "FILE...", description: "upstream-format files" }],
    flags: DESCRIBE_FLAGS,
  },
  {
    command: "yardstick spatial audit",
    summary: "Re-answers every question of a dataset from its text alone and reports the answers that disagree.",
    positionals: [{ name: "DIR", description: "a dataset folder" }],
    flags: AUDIT_FLAGS,
  },
];

const SUBCOMMAND_HELP: Record<string, CliCommandSpec> = { generate: SPATIAL_HELP[0]!, describe: SPATIAL_HELP[1]!, audit: SPATIAL_HELP[2]! };

function usage(stream: CliIo["stdout"], command?: string): string {
  const spec = command === undefined ? undefined : SUBCOMMAND_HELP[command];
  return `${spec ? formatCommandHelp(spec, helpWidth(stream)) : formatCommandsHelp(SPATIAL_HELP, helpWidth(stream))}\n`;
}

/** Bad flags: exit code 2. */
class UsageError extends ConfigError {}

function intFlag(name: string, value: string | undefined, min: number): number {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

async function generate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      ...parseArgsOptions(GENERATE_FLAGS),
      images: { type: "boolean", default: false },
      "inline-images": { type: "boolean", default: false },
      "few-shot": { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const shapes = intFlag("shapes", values.shapes, 1);
  // Each shape on a canvas is a distinct kind/colour/size: checked before the output folder is made.
  if (shapes > COMBINATION_COUNT) throw new UsageError(`--shapes must be at most ${COMBINATION_COUNT} (the distinct kind/colour/size combinations), got ${shapes}`);
  const count = intFlag("count", values.count, 1);
  if (values.out === undefined) throw new UsageError("--out is required");
  const seed = values.seed ?? "0";
  const format = oneOf<OutputFormat>("format", values.format, ["original", "seahelm", "ultraeval"], "original");
  const mode = oneOf("mode", values.mode, ["fixed", "compat"] as const, "fixed");
  const workers = values.workers === undefined ? undefined : intFlag("workers", values.workers, 1);
  let tasks: TaskName[] | undefined;
  if (values.tasks !== undefined) {
    tasks = values.tasks.split(",").map((t) => t.trim()) as TaskName[];
    for (const t of tasks) if (!(TASK_NAMES as readonly string[]).includes(t)) throw new UsageError(`unknown task "${t}"; expected one of ${TASK_NAMES.join(", ")}`);
    // A task asked for by name that cannot be built from this many shapes would silently give no questions.
    const minShapes: Partial<Record<TaskName, number>> = { transitivity: 3, shuffle_tracking: mode === "compat" ? 3 : 2 };
    for (const t of tasks) {
      const min = minShapes[t];
      if (min !== undefined && shapes < min) {
        throw new UsageError(`task ${t} needs at least ${min} shapes${t === "shuffle_tracking" && mode === "compat" ? " in compat mode" : ""}, got --shapes ${shapes}`);
      }
    }
  }
  const summary = await writeDataset(values.out, {
    shapes,
    count,
    seed,
    mode,
    format,
    images: values.images,
    inlineImages: values["inline-images"],
    ...(tasks ? { tasks } : {}),
    ...(workers ? { workers } : {}),
    fewshot: values["few-shot"],
  });
  io.stdout.write(`${JSON.stringify(summary)}\n`);
  return 0;
}

async function describe(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: parseArgsOptions(DESCRIBE_FLAGS), strict: true, allowPositionals: true });
  // The original files are compat-mode text; `--mode fixed` describes files this port wrote in fixed mode.
  const mode = oneOf("mode", values.mode, ["fixed", "compat"] as const, "compat");
  if (positionals.length === 0) throw new UsageError("describe needs at least one FILE");
  // Loaded per subcommand: zod (file validation) is not needed to generate.
  const [{ describeCanvas }, { canvasShapes, parseOriginalFile }] = await Promise.all([import("./describe.js"), import("./original-format.js")]);
  for (const file of positionals) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      throw new YardstickError(`${file}: cannot read: ${(err as Error).message}`, { cause: err });
    }
    const shapes = canvasShapes(parseOriginalFile(text, file));
    let d: ReturnType<typeof describeCanvas>;
    try {
      d = describeCanvas(shapes, mode);
    } catch (err) {
      throw new DataLoadError(`cannot describe the canvas: ${(err as Error).message}`, { file, cause: err });
    }
    io.stdout.write(`${JSON.stringify({ file, full: d.full, partial: d.partial, coordinates: d.coordinates, coordinate: d.coordinate })}\n`);
  }
  return 0;
}

async function audit(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { ...parseArgsOptions(AUDIT_FLAGS), json: { type: "boolean", default: false } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError("audit needs exactly one DIR");
  const { auditDirectory, formatAuditReport } = await import("./audit.js");
  const report = await auditDirectory(positionals[0]!);
  io.stdout.write(values.json ? `${JSON.stringify(report)}\n` : formatAuditReport(report));
  return 0;
}

/** `yardstick spatial ...`; returns the exit code. Bad input prints one message, never a stack trace. */
export async function runSpatialCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(SUBCOMMAND_HELP, command) && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout.write(usage(io.stdout, command));
    return 0;
  }
  try {
    switch (command) {
      case "generate":
        return await generate(rest, io);
      case "describe":
        return await describe(rest, io);
      case "audit":
        return await audit(rest, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        (command === undefined ? io.stderr : io.stdout).write(usage(command === undefined ? io.stderr : io.stdout));
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    const isUsage = err instanceof UsageError || (err as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") === true;
    const flags = command !== undefined && Object.hasOwn(SUBCOMMAND_HELP, command) ? SUBCOMMAND_HELP[command]!.flags : {};
    const message = parseArgsErrorMessage(err, flags);
    io.stderr.write(`error: ${message}\n${isUsage ? usage(io.stderr, command) : ""}`);
    return isUsage ? 2 : 1;
  }
}
