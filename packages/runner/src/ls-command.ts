import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { type CliCommandSpec, closestName, defineFlags, type PluginRef, type Registry, type TaskDiagnostic, type TaskSpec } from "@yardstick/core";
import { UsageError, listFlag, parseFlags, requireConfigPaths } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { loadInstalledMetricPackages, loadNamedMetricPackages } from "./metric-packages.js";
import { annotateHubData, hubDataStatuses } from "./hub-data-status.js";
import { LISTABLE_KINDS, type ListableKind, formatPluginRows, listingOf, pluginRows } from "./ls-plugins.js";
import { findUnrunnable, loadTaskSpecs } from "./tasks.js";
import { suiteGaps } from "./validate-command.js";

const LS_FLAGS = defineFlags({
  tasks: { type: "string", value: "a,b", default: "every task", description: "only these tasks or aggregation groups" },
  langs: { type: "string", value: "x,y", default: "every language", description: "only these languages" },
  suite: { type: "string", value: "NAME", description: "only the tasks of a named suite (SEA-HELM's task_config.yaml)" },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first" },
  json: {
    type: "boolean",
    description:
      'print {"tasks": [...]} instead of a table (with --suite also "suiteGaps": suite entries that select nothing here); for a plugin listing, {"<kind>": [{id, description, needs, from}]}',
  },
});

const KIND_WORDS = Object.keys(LISTABLE_KINDS).join("|");

export const LS_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick ls",
    summary:
      "Lists the tasks of the configs, one row per task and language: competency, mode, main score, judge (its id and the judge model the config names), data source (a local path relative to here, or hf:<dataset>) and whether the task runs here, with the reason when it does not. Sends no request and reads no data. `yardstick ls metrics` (or providers, judges, ...) lists the plugins instead, with what each needs.",
    usage: [
      "yardstick ls <config-file-or-folder>... [--tasks a,b] [--langs x,y] [--suite NAME] [--plugin PACKAGE]... [--json]",
      "yardstick ls KIND... [--plugin PACKAGE]... [--json]",
    ],
    positionals: [
      { name: "<config-file-or-folder>...", description: "config files, or folders searched for them" },
      {
        name: "KIND...",
        description:
          `${KIND_WORDS.replaceAll("|", ", ")} or plugins: instead of configs, list these plugins of the registry (built-in and --plugin packages): each id, a one-line description and what it needs (inputs, options, flags, environment, capabilities); plugins lists every kind. A path of that name is read as a config.`,
      },
    ],
    flags: LS_FLAGS,
  },
];

export interface LsReason {
  code: string;
  message: string;
}

/** One row of `yardstick ls`: a task in one language. */
export interface LsRow {
  key: string;
  task: string;
  language: string;
  competency: string;
  mode: TaskSpec["mode"];
  /** The main score (the metric output that represents the task). */
  metric: string;
  metrics: string[];
  /** The id of the task's LLM judge (`TaskSpec.judge`), null when the task is not judged. */
  judge: string | null;
  /** The judge model the config names (used when no `--judge-model` is given), null when none. */
  judgeModel: string | null;
  /** A local path relative to the working folder, `hf:<dataset>`, or the dataloader id. */
  data: string;
  /** The config file, relative to the working folder. */
  file: string | null;
  runsHere: boolean;
  reasons: LsReason[];
  diagnostics: TaskDiagnostic[];
}

/** `yardstick ls DIR...`: what the configs hold and what of it can run on this machine. */
export async function lsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, LS_FLAGS);
  if (positionals.length === 0) throw new UsageError(`ls: give config files or folders, or plugin kinds to list (${KIND_WORDS}|plugins)`);
  const listings = positionals.map((p) => (existsSync(resolve(io.cwd, p)) ? undefined : listingOf(p)));
  if (positionals.length > 0 && listings.every((l) => l !== undefined)) return lsPlugins(listings as (ListableKind | "all")[], values, io);
  // A bare word that is neither a path nor a kind is most likely a mistyped kind ("metric", "judgs").
  const mistyped = positionals.find((p, i) => listings[i] === undefined && !existsSync(resolve(io.cwd, p)) && /^[a-z-]+$/i.test(p));
  if (mistyped !== undefined) {
    const near = closestName(mistyped, [...Object.keys(LISTABLE_KINDS), "plugins"]);
    throw new UsageError(`ls: "${mistyped}" is neither a config file or folder nor a plugin kind (${KIND_WORDS}|plugins)${near ? `; did you mean ${near}?` : ""}`);
  }
  if (listings.some((l) => l !== undefined) && positionals.length > 1) {
    throw new UsageError(`ls: give either config files or folders, or plugin kinds (${KIND_WORDS}|plugins), not both`);
  }
  const paths = requireConfigPaths(positionals, "ls").map((p) => resolve(io.cwd, p));
  let registry: Registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  if (values.plugin?.length) registry = registry.extend(await loadPluginPackages(values.plugin, io.cwd));

  const { tasks } = await loadTaskSpecs(paths, {
    tasks: listFlag(values.tasks),
    languages: listFlag(values.langs),
    ...(values.suite !== undefined ? { suite: values.suite } : {}),
    requireData: false,
    dialects: dialectsOf(registry),
  });
  const { registry: withPlugins, failures, metricFailures } = await loadTaskPlugins(tasks, registry, io.cwd);
  const rows = listRows(tasks, withPlugins, failures, io.cwd, metricFailures);
  annotateHubData(rows, tasks, await hubDataStatuses(tasks, withPlugins, io.cwd));
  const gaps = values.suite === undefined ? [] : await suiteGaps(paths, values.suite, dialectsOf(registry));

  if (values.json) io.stdout.write(`${JSON.stringify({ tasks: rows, ...(values.suite === undefined ? {} : { suiteGaps: gaps }) }, null, 2)}\n`);
  else io.stdout.write(`${formatLsTable(rows)}\n${gaps.length > 0 ? `\nsuite entries that select nothing:\n${gaps.map((g) => `  ${g}`).join("\n")}\n` : ""}`);
  return 0;
}

/** `yardstick ls metrics ...`: the registry's plugins of the named kinds, with the `--plugin` packages' entries. */
async function lsPlugins(listings: readonly (ListableKind | "all")[], values: { tasks?: string; langs?: string; suite?: string; plugin?: string[]; json?: boolean }, io: CliIO): Promise<number> {
  for (const flag of ["tasks", "langs", "suite"] as const) {
    if (values[flag] !== undefined) throw new UsageError(`ls: --${flag} selects tasks of configs; it does not apply to a plugin listing`);
  }
  const builtin = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  const packages = [];
  let registry: Registry = builtin;
  // Metric packages installed under the naming convention are listed without --plugin, as runs find them.
  const installed = await loadInstalledMetricPackages([io.cwd], (name, message) => io.stderr.write(`warning: metric package ${name} cannot be loaded: ${message}\n`));
  for (const { name, init } of installed) {
    if (Object.keys(init.metrics ?? {}).some((id) => builtin.has("metrics", id))) continue; // never shadows a built-in
    packages.push({ name, init });
    registry = registry.extend(init);
  }
  for (const name of values.plugin ?? []) {
    const init = await loadPluginPackages([name], io.cwd);
    packages.push({ name, init });
    registry = registry.extend(init);
  }
  const all = Object.keys(LISTABLE_KINDS) as ListableKind[];
  const kinds = listings.includes("all") ? all : all.filter((k) => listings.includes(k));
  const rows = pluginRows(registry, kinds, (kind) => new Set(builtin.ids(kind)), packages);
  io.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : `${formatPluginRows(rows)}\n`);
  return 0;
}

/** Loads the plugin packages the tasks name, one by one: a package that cannot load is a reason, not an abort. */
async function loadTaskPlugins(
  tasks: readonly TaskSpec[],
  registry: Registry,
  cwd: string,
): Promise<{ registry: Registry; failures: Map<string, string>; metricFailures: Map<string, string> }> {
  const failures = new Map<string, string>();
  for (const name of new Set(tasks.flatMap((t) => t.plugins ?? []))) {
    try {
      registry = registry.extend(await loadPluginPackages([name], cwd));
    } catch (err) {
      failures.set(name, err instanceof Error ? err.message : String(err));
    }
  }
  // A metric package found by name that cannot load is the reason of the tasks naming that metric.
  const metricFailures = new Map<string, string>();
  ({ registry } = await loadNamedMetricPackages(tasks, registry, [cwd], (metric, err) => metricFailures.set(metric, err.message)));
  return { registry, failures, metricFailures };
}

export function listRows(
  tasks: readonly TaskSpec[],
  registry: Registry,
  pluginFailures: ReadonlyMap<string, string>,
  cwd: string,
  metricPackageFailures: ReadonlyMap<string, string> = new Map(),
): LsRow[] {
  const reasons = new Map<TaskSpec, LsReason[]>();
  for (const u of findUnrunnable(tasks, registry)) reasons.set(u.task, [...(reasons.get(u.task) ?? []), { code: u.code, message: u.reason }]);
  return tasks.map((t) => {
    const why = [
      ...(t.plugins ?? []).flatMap((name) => {
        const failure = pluginFailures.get(name);
        return failure === undefined ? [] : [{ code: "missing-plugin-package", message: `needs the plugin package ${name}: ${failure}` }];
      }),
      ...t.metrics.flatMap((m) => {
        const failure = metricPackageFailures.get(m.id);
        return failure === undefined ? [] : [{ code: "missing-plugin-package", message: failure }];
      }),
      ...(reasons.get(t) ?? []),
    ];
    return {
      key: t.key,
      task: t.name,
      language: t.language,
      competency: t.competency,
      mode: t.mode,
      metric: t.mainScore,
      metrics: t.metrics.map((m) => m.id),
      judge: t.judge?.id ?? null,
      judgeModel: t.judge?.model ?? null,
      data: dataSource(t.data, cwd),
      file: t.source?.file ? relative(cwd, t.source.file) : null,
      runsHere: why.length === 0,
      reasons: why,
      diagnostics: t.diagnostics ?? [],
    };
  });
}

function dataSource(ref: PluginRef, cwd: string): string {
  const options = ref.options ?? {};
  if (ref.id === "huggingface" && typeof options.repo === "string") return `hf:${options.repo}`;
  if (typeof options.path === "string") return relative(cwd, options.path) || ".";
  return ref.id;
}

/** The judge column: its id and, in parentheses, the judge model the config names. */
function judgeCell(r: LsRow): string {
  if (r.judge === null) return "-";
  return r.judgeModel === null ? r.judge : `${r.judge} (${r.judgeModel})`;
}

const HEADER = ["task", "lang", "competency", "mode", "metric", "judge", "data", "runs here"];

/** A plain-text table for terminals, then the full reason for every task that does not run here. */
export function formatLsTable(rows: readonly LsRow[]): string {
  const cells = rows.map((r) => [
    r.task,
    r.language || "-",
    r.competency || "-",
    r.mode,
    r.metric,
    judgeCell(r),
    r.data,
    r.runsHere ? "yes" : `no: ${[...new Set(r.reasons.map((x) => x.code))].join(", ")}`,
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]): string =>
    c
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const runnable = rows.filter((r) => r.runsHere).length;
  const out = [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line), ""];
  out.push(`${rows.length} task-language pair(s), ${runnable} run here`);
  const blocked = rows.filter((r) => !r.runsHere);
  if (blocked.length > 0) {
    out.push("", "why not:");
    for (const r of blocked) for (const reason of r.reasons) out.push(`  ${r.key} ${reason.message}`);
  }
  return out.join("\n");
}
