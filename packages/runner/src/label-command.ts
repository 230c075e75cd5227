import { copyFileSync, existsSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type CliCommandSpec, ConfigError, defineFlags, makeDirectorySync } from "@yardstick/core";
import { RunStore } from "@yardstick/engine";
import {
  confinedPath,
  createLabelingServer,
  datasetFromRuns,
  LabelStore,
  LabelStoreError,
  labelRecords,
  loadDataFolder,
  loadTaskFile,
  type RunAnswers,
  type TaskDef,
  taskFromRubric,
} from "@yardstick/labeling";
import { loadRubric } from "@yardstick/config";
import { readRun } from "@yardstick/report";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { untilStopped } from "./until-stopped.js";

const DATA_FLAG = {
  type: "string",
  value: "DIR",
  default: "the current folder",
  description: "the data folder: tasks/*.json, datasets/*.jsonl, results/*.jsonl and labels.sqlite",
} as const;

const SERVE_FLAGS = defineFlags({
  data: DATA_FLAG,
  port: { type: "string", value: "N", default: "0, any free port", description: "port to listen on" },
  host: { type: "string", value: "H", default: "127.0.0.1", description: "interface to listen on" },
  "labels-per-sample": { type: "string", value: "K", default: "1", description: "distinct labelers per sample when a task does not say" },
  "no-fsync": {
    type: "boolean",
    description: "do not sync each label to disk before acknowledging it: a killed server still loses nothing, a machine crash may lose the last labels (faster)",
  },
});

const ADD_LABELER_FLAGS = defineFlags({ data: DATA_FLAG });

const IMPORT_FLAGS = defineFlags({
  task: { type: "string", value: "TASK.json", description: "the Quest task whose dataset the answers become (or --rubric)" },
  rubric: { type: "string", value: "RUBRIC.yaml", description: "make a single-answer task whose question is the rubric's (or --task)" },
  data: DATA_FLAG,
  "run-task": { type: "string", value: "KEY", default: "every task", description: "import only this task of the run(s)" },
  seed: { type: "string", value: "N", default: "1", description: "seed of the A/B order of a two-run import" },
});

const TO_RUN_FLAGS = defineFlags({
  task: { type: "string", value: "NAME", required: true, description: "the imported task (a task id in DIR/tasks)" },
  data: DATA_FLAG,
});

export const LABEL_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick label serve",
    summary:
      "The labeling web app for human feedback (Quest Data Labeler task format). serve: serve the tasks of DIR (API under /api, the labeling UI at /) until Ctrl-C; the admin token is YARDSTICK_LABEL_ADMIN_TOKEN or generated and printed once.",
    flags: SERVE_FLAGS,
  },
  {
    command: "yardstick label add-labeler",
    summary: "Creates a labeler and prints their sign-in token (shown only this once).",
    positionals: [{ name: "NAME", description: "the labeler's name (1 to 64 letters, digits, spaces or _ . @ -)" }],
    flags: ADD_LABELER_FLAGS,
  },
  {
    command: "yardstick label import",
    usage: [
      "yardstick label import RUN [RUN2] --task TASK.json [--data DIR] [--run-task KEY] [--seed N]",
      "yardstick label import RUN --rubric RUBRIC.yaml [--data DIR] [--run-task KEY]",
    ],
    summary:
      'Turns a run\'s answers (or two runs\' answers side by side, in a random order that is recorded) into the dataset TASK.json names, and copies TASK.json (and the rubric it names) into DIR/tasks; with --rubric, makes a single-answer task whose question is the rubric\'s (DIR/tasks/<rubric id>.json, labels comparable with a rubric judge\'s by "yardstick agreement").',
    positionals: [
      { name: "RUN", description: "a run store" },
      { name: "[RUN2]", description: "a second run store, answers shown side by side (not with --rubric)" },
    ],
    flags: IMPORT_FLAGS,
  },
  {
    command: "yardstick label to-run",
    summary: "Writes the labels of an imported task into the runs as label-stage records.",
    positionals: [{ name: "RUN...", description: "the run folder(s) the task was imported from" }],
    flags: TO_RUN_FLAGS,
  },
];

const AdminToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,200}$/, "expected 16 to 200 characters of A-Z a-z 0-9 _ -");
const LabelerName = z.string().regex(/^[\p{L}\p{N}_.@ -]{1,64}$/u, "expected 1 to 64 letters, digits, spaces or _ . @ -");

function dataDir(io: CliIO, value: string | undefined): string {
  const dir = resolve(io.cwd, value ?? ".");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--data: ${dir} is not a folder`);
  return dir;
}

/** `yardstick label serve|add-labeler`; `stop` ends `serve` besides SIGINT/SIGTERM (tests). */
export async function labelCommand(argv: string[], io: CliIO, stop?: AbortSignal): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "add-labeler") return addLabeler(rest, io);
  if (sub === "serve") return serve(rest, io, stop);
  if (sub === "import") return importRuns(rest, io);
  if (sub === "to-run") return toRun(rest, io);
  throw new UsageError(sub === undefined ? "label: give a subcommand (serve, add-labeler, import, to-run)" : `label: unknown subcommand "${sub}"`);
}

function addLabeler(argv: string[], io: CliIO): number {
  const { values, positionals } = parseFlags(argv, ADD_LABELER_FLAGS);
  if (positionals.length !== 1) throw new UsageError("label add-labeler: give exactly one NAME");
  const name = checkFlag("NAME", LabelerName, positionals[0]);
  const store = new LabelStore(dataDir(io, values.data));
  try {
    const token = store.addLabeler(name);
    io.stdout.write(`labeler "${name}" added; their token (shown only now, stored hashed):\n${token}\n`);
    return 0;
  } catch (err) {
    if (err instanceof LabelStoreError) throw new ConfigError(err.message);
    throw err;
  } finally {
    store.close();
  }
}

async function serve(argv: string[], io: CliIO, stop?: AbortSignal): Promise<number> {
  const { values, positionals } = parseFlags(argv, SERVE_FLAGS);
  if (positionals.length > 0) throw new UsageError(`label serve: unexpected argument "${positionals[0]}"`);
  const port = checkFlag("port", z.union([z.literal("0").transform(() => 0), intFlag(1, 65535)]), values.port ?? "0");
  const host = checkFlag("host", z.string().min(1).max(255), values.host ?? SERVE_FLAGS.host.default);
  const perSample = checkFlag("labels-per-sample", intFlag(1, 1000), values["labels-per-sample"] ?? SERVE_FLAGS["labels-per-sample"].default);
  const envToken = io.env.YARDSTICK_LABEL_ADMIN_TOKEN;
  const adminToken = envToken === undefined || envToken === "" ? undefined : checkFlag("YARDSTICK_LABEL_ADMIN_TOKEN", AdminToken, envToken);
  const server = createLabelingServer({ dataDir: dataDir(io, values.data), adminToken, labelsPerSample: perSample, fsync: !values["no-fsync"] });
  for (const problem of server.folder.problems) io.stderr.write(`warning: not served: ${problem}\n`);
  let url: string;
  try {
    url = await server.listen(port, host);
  } catch (err) {
    await server.close();
    throw new UsageError(`--port/--host: cannot listen on ${host}:${port} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  io.stdout.write(`labeling ${server.folder.tasks.size} task(s) at ${url}/\n`);
  if (server.generatedAdminToken) io.stdout.write(`admin token (shown only now; set YARDSTICK_LABEL_ADMIN_TOKEN to choose one):\n${server.generatedAdminToken}\n`);
  io.stdout.write("press Ctrl-C to stop\n");
  await untilStopped(stop);
  await server.close();
  io.stdout.write("stopped\n");
  return 0;
}

async function importRuns(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, IMPORT_FLAGS);
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError("label import: give one run folder, or two for a comparison");
  if (!values.task === !values.rubric) throw new UsageError("label import: give --task TASK.json, or --rubric RUBRIC.yaml to make a task from a rubric");
  if (values.rubric && positionals.length === 2) throw new UsageError("label import: a rubric rates one answer at a time; import one run with --rubric");
  const seed = checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed ?? IMPORT_FLAGS.seed.default);
  const dir = dataDir(io, values.data);
  const source = values.rubric ? await taskOfRubric(dir, resolve(io.cwd, values.rubric)) : taskOfFile(dir, resolve(io.cwd, values.task!));
  const { task, taskFile } = source;
  const expected = positionals.length === 2 ? "comparison" : "single";
  if (task.presentation.type !== expected) {
    throw new ConfigError(`${positionals.length} run(s) make a ${expected} dataset, but the task's presentation is "${task.presentation.type}"`, {
      file: taskFile,
      keyPath: ["presentation", "type"],
    });
  }
  const runs: RunAnswers[] = [];
  for (const p of positionals) {
    const run = await readRun(resolve(io.cwd, p));
    if (!run.manifest) throw new ConfigError(`not a readable run store: ${run.problems.join("; ") || "run.json is missing"}`, { file: run.dir });
    runs.push({ fingerprint: run.manifest.fingerprint, samples: run.samples });
  }
  const built = datasetFromRuns(runs, { seed, ...(values["run-task"] ? { task: values["run-task"] } : {}) });
  for (const sub of ["tasks", "datasets", "results"]) makeDirectorySync(join(dir, sub));
  const name = task.dataset.name.endsWith(".jsonl") ? task.dataset.name : `${task.dataset.name}.jsonl`;
  const target = confinedPath(dir, "datasets", name);
  if (existsSync(target)) throw new ConfigError(`${target} exists already; give the task another dataset name or remove it`);
  const copyRubric = rubricCopy(dir, task, source.rubricSource);
  writeFileSync(target, built.jsonl, { flag: "wx" });
  source.install();
  copyRubric();
  io.stdout.write(`wrote ${built.lines} line(s) to ${target}${built.skipped > 0 ? ` (${built.skipped} sample(s) without an answer to compare left out)` : ""}; task ${source.taskTarget}\n`);
  return 0;
}

/**
 * The task names its rubric beside it, so the rubric goes into DIR/tasks with it. Checked before
 * anything is written (a different rubric of the same name is refused); returns the copy step.
 */
function rubricCopy(dir: string, task: TaskDef, source: string | undefined): () => void {
  if (task.rubric === undefined || source === undefined) return () => {};
  const rubricTarget = confinedPath(dir, "tasks", task.rubric);
  if (rubricTarget === realpathSync(source)) return () => {};
  const text = readFileSync(source, "utf8");
  if (existsSync(rubricTarget) && readFileSync(rubricTarget, "utf8") !== text) {
    throw new ConfigError(`${rubricTarget} exists already with other content; rename one of the rubrics`);
  }
  return () => {
    makeDirectorySync(dirname(rubricTarget));
    writeFileSync(rubricTarget, text);
  };
}

interface TaskSource {
  task: TaskDef;
  /** Where the task comes from (names it in errors). */
  taskFile: string;
  /** Where it goes: DIR/tasks/<id>.json. */
  taskTarget: string;
  /** The rubric file the task names, when it names one. */
  rubricSource?: string;
  /** Puts the task file into DIR/tasks (after the dataset is written). */
  install(): void;
}

/** A task file given with --task; a rubric it names is read beside it. */
function taskOfFile(dir: string, taskFile: string): TaskSource {
  const task = loadTaskFile(taskFile);
  const taskTarget = join(dir, "tasks", basename(taskFile));
  return {
    task,
    taskFile,
    taskTarget,
    ...(task.rubric === undefined ? {} : { rubricSource: resolve(dirname(taskFile), task.rubric) }),
    install: () => {
      if (resolve(taskTarget) !== taskFile) copyFileSync(taskFile, taskTarget);
    },
  };
}

/** A single-answer task made from a rubric, to be written to DIR/tasks/<rubric id>.json beside a copy of the rubric. */
async function taskOfRubric(dir: string, rubricFile: string): Promise<TaskSource> {
  const rubric = await loadRubric(rubricFile);
  // Same file name, so a rubric without an `id` keeps the id (its file name) the judge gives it.
  const { id, task } = taskFromRubric(rubric, basename(rubricFile));
  const taskTarget = join(dir, "tasks", `${id}.json`);
  if (existsSync(taskTarget)) throw new ConfigError(`${taskTarget} exists already; remove it, or import with --task`);
  const { feedback: _fromTheRubric, ...written } = task;
  return {
    task,
    taskFile: rubricFile,
    taskTarget,
    rubricSource: rubricFile,
    install: () => writeFileSync(taskTarget, `${JSON.stringify(written, null, 2)}\n`, { flag: "wx" }),
  };
}

async function toRun(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, TO_RUN_FLAGS);
  if (positionals.length < 1) throw new UsageError("label to-run: give the run folder(s) the task was imported from");
  if (!values.task) throw new UsageError("label to-run: --task NAME (a task id in DIR/tasks) is required");
  const folder = loadDataFolder(dataDir(io, values.data));
  const task = folder.tasks.get(values.task);
  if (!task) throw new ConfigError(`no task "${values.task}" is served from ${folder.root}${folder.problems.length ? ` (${folder.problems.join("; ")})` : ""}`);
  const store = new LabelStore(folder.root);
  const byRun = labelRecords(task, store.doneRows(task.id));
  store.close();
  let written = 0;
  for (const p of positionals) {
    const runStore = new RunStore(resolve(io.cwd, p));
    const { manifest } = await runStore.readManifest();
    const records = byRun.get(manifest.fingerprint) ?? [];
    byRun.delete(manifest.fingerprint);
    await runStore.open(manifest);
    try {
      for (const r of records) runStore.append(r);
    } finally {
      await runStore.close();
    }
    written += records.length;
    io.stdout.write(`${p}: ${records.length} label record(s)\n`);
  }
  if (byRun.size > 0) io.stderr.write(`warning: labels of ${byRun.size} other run(s) were not written: give those run folders too\n`);
  return written > 0 || byRun.size === 0 ? 0 : 1;
}
