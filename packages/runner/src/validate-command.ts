import { relative, resolve } from "node:path";
import { detectDialect, listsConfigProblems, listsSuiteGaps, loadTasks } from "@yardstick/config";
import { type CliCommandSpec, type ConfigDialectV1, ConfigError, defineFlags, type Registry } from "@yardstick/core";
import { parseFlags, requireConfigPaths } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { loadNamedMetricPackages } from "./metric-packages.js";
import { hubDataStatuses, hubDataUnrunnable, hubDownloadNotes } from "./hub-data-status.js";
import { terminalSafe } from "./report-error.js";
import { findUnrunnable, type UnrunnableTask } from "./tasks.js";

const VALIDATE_FLAGS = defineFlags({
  suite: { type: "string", value: "NAME", description: "only the tasks of a named suite (SEA-HELM's task_config.yaml)" },
  strict: { type: "boolean", description: "tasks that cannot run here, and suite entries that select nothing, are errors (exit 1)" },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first" },
  "schema-only": { type: "boolean", description: "check the schema and templates alone" },
  quiet: { type: "boolean", description: "print nothing when all is well" },
});

export const VALIDATE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick validate",
    summary:
      "Checks config files without running them: the schema, templates against the first rows of local data files, judge prompts against the fields their judge fills, plugin ids and options (the judge's too). Exits 1 when a config is invalid. Tasks that are valid but cannot run here (no port of a metric, log-probability scoring, a missing data file, ...) are listed once each, grouped by reason, as warnings.",
    positionals: [{ name: "<config-file-or-folder>...", description: "config files, or folders searched for them (each read by its config dialect)" }],
    flags: VALIDATE_FLAGS,
  },
];

/**
 * `yardstick validate <config...>`: every problem in every file, one per line, without running
 * anything. Each path goes through its config dialect. Beyond the schema it checks what `run` would
 * refuse (unknown plugin ids, bad plugin options, data yardstick cannot load), unless `--schema-only`.
 */
export async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, VALIDATE_FLAGS);
  const paths = requireConfigPaths(positionals, "validate").map((p) => resolve(io.cwd, p));
  let registry: Registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  // --plugin packages come first: they may bring the dialect a path is in.
  if (values.plugin?.length) registry = registry.extend(await loadPluginPackages(values.plugin, io.cwd));
  const dialects = dialectsOf(registry);

  const problems: string[] = [];
  for (const p of paths) problems.push(...(await configProblems(p, await detectDialect(p, dialects))));
  for (const message of problems) io.stderr.write(`${terminalSafe(message)}\n`);
  if (problems.length > 0) {
    io.stderr.write(`${problems.length} problem(s) found\n`);
    return 1;
  }

  const specs = await loadTasks(paths, { dialects, ...(values.suite !== undefined ? { suite: values.suite } : {}) });
  const taskCount = new Set(specs.map((s) => `${s.source?.file ?? ""}\0${s.name}`)).size;
  const gaps = values.suite === undefined ? [] : await suiteGaps(paths, values.suite, dialects);
  for (const gap of gaps) io.stderr.write(`${values.strict ? "error" : "warning"}: ${gap}\n`);
  if (values.strict && gaps.length > 0) {
    io.stderr.write(`${gaps.length} suite entr${gaps.length === 1 ? "y selects" : "ies select"} nothing (--strict)\n`);
    return 1;
  }
  let blocked = 0;
  let notes: string[] = [];
  if (!values["schema-only"]) {
    const plugins = [...new Set(specs.flatMap((s) => s.plugins ?? []))].filter((name) => !values.plugin?.includes(name));
    if (plugins.length > 0) registry = registry.extend(await loadPluginPackages(plugins, io.cwd));
    registry = (await loadNamedMetricPackages(specs, registry, [io.cwd])).registry;
    // Hub repository files: "downloads on first run" from the cache alone; not cached and offline cannot run.
    const hubData = await hubDataStatuses(specs, registry, io.cwd);
    notes = hubDownloadNotes(hubData);
    const unrunnable = [...findUnrunnable(specs, registry), ...hubDataUnrunnable(hubData)];
    blocked = new Set(unrunnable.map((u) => u.task)).size;
    if (unrunnable.length > 0) {
      const level = values.strict ? "error" : "warning";
      io.stderr.write(`${formatUnrunnable(unrunnable, level, io.cwd)}\n`);
      if (values.strict) {
        io.stderr.write(`${taskCount} task(s) are valid, but ${blocked} task-language pair(s) cannot run here (--strict)\n`);
        return 1;
      }
    }
  }
  if (!values.quiet) {
    const runs = blocked > 0 ? `; ${specs.length - blocked} run here, ${blocked} cannot (warnings above)` : "";
    io.stdout.write(`ok: ${taskCount} task(s), ${specs.length} task-language pair(s)${runs}\n`);
    // On stderr, with the warnings: stdout stays the one "ok" line.
    for (const note of notes) io.stderr.write(`note: ${note}\n`);
  }
  return 0;
}

/**
 * The tasks that cannot run here, grouped by reason code, each task once with its languages:
 *
 *   warning: logprobs: 191 task(s), 558 task-language pair(s) cannot run here
 *     sentiment-logprobs (id, vi, th) nlu/sentiment/config.yaml: scores the log-probability ...
 */
export function formatUnrunnable(unrunnable: readonly UnrunnableTask[], level: "warning" | "error", cwd: string): string {
  const byCode = new Map<string, Map<string, { languages: Set<string>; file: string; reasons: Set<string> }>>();
  for (const u of unrunnable) {
    const tasks = byCode.get(u.code) ?? new Map();
    byCode.set(u.code, tasks);
    const id = `${u.task.source?.file ?? ""}\0${u.task.name}`;
    const entry = tasks.get(id) ?? { languages: new Set<string>(), file: u.task.source?.file ?? "", reasons: new Set<string>() };
    tasks.set(id, entry);
    if (u.task.language) entry.languages.add(u.task.language);
    entry.reasons.add(u.reason);
  }
  const out: string[] = [];
  for (const [code, tasks] of [...byCode].sort((a, b) => b[1].size - a[1].size)) {
    const pairs = new Set(unrunnable.filter((u) => u.code === code).map((u) => u.task)).size;
    out.push(`${level}: ${code}: ${tasks.size} task(s), ${pairs} task-language pair(s) cannot run here`);
    for (const [id, entry] of tasks) {
      const name = id.slice(id.indexOf("\0") + 1);
      const langs = entry.languages.size > 0 ? ` (${[...entry.languages].join(", ")})` : "";
      const file = entry.file ? ` ${relative(cwd, entry.file)}:` : ":";
      const [first, ...more] = [...entry.reasons];
      out.push(`  ${name}${langs}${file} ${first}${more.length > 0 ? ` (and ${more.length} more like it)` : ""}`);
    }
  }
  return out.join("\n");
}

/** What a suite lists that selects nothing, from each path's dialect that can tell. */
export async function suiteGaps(paths: readonly string[], suite: string, dialects: readonly ConfigDialectV1[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const dialect = await detectDialect(p, dialects);
    if (listsSuiteGaps(dialect)) out.push(...(await dialect.listSuiteGaps(p, suite)));
  }
  return out;
}

/** Every problem a dialect can list for a path; a dialect without that ability reports its first load error. */
async function configProblems(path: string, dialect: ConfigDialectV1): Promise<string[]> {
  if (listsConfigProblems(dialect)) return (await dialect.listProblems(path)).map((e) => e.message);
  try {
    await dialect.load(path);
    return [];
  } catch (err) {
    if (ConfigError.isInstance(err)) return [err.message];
    throw err;
  }
}
