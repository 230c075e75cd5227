/**
 * Loads SEA-HELM `config.yaml` files: parse (keeping positions), merge the top-level task keys of all
 * files, resolve `${...}` interpolation across them, then check every task with the zod schema.
 *
 * Cross-file references: when a loaded file refers to a task that none of the given files define, every
 * `config.yaml` under the nearest ancestor folder named `seahelm_tasks` is loaded as an auxiliary
 * source. Auxiliary tasks only serve as reference targets; they are not part of the result.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { ConfigError } from "@yardstick/core";
import { isScalar } from "yaml";
import { findConfigFiles, nearestTasksRoot } from "./find-configs.js";
import { createResolver, type KeyPath, type Position, parseInterpolation, parseRefPath } from "./interpolate.js";
import { isPlainObject } from "./python-str.js";
import { type SeaHelmTask, seaHelmTaskSchema } from "./seahelm-schema.js";
import { nodeAtPath, nodePosition, parseYamlSource, type YamlSource } from "./yaml-source.js";
import { issueToConfigError } from "./zod-issues.js";

export interface LoadedTask {
  /** Top-level key in the file, e.g. "sentiment". */
  key: string;
  /** Absolute path of the config file that defines it. */
  file: string;
  /** The resolved and validated task. */
  config: SeaHelmTask;
}

export interface LoadedConfigs {
  /** Valid tasks of the given files, in file order then key order. */
  tasks: Map<string, LoadedTask>;
  /** The config files that were given (directly or found in given folders). */
  files: string[];
  /** Sibling files loaded only to resolve cross-file references. */
  auxiliaryFiles: string[];
  /** Maps a key path (first element = task key) to a source position, following `${...}` links. */
  locate(keyPath: KeyPath): Position;
}

export interface LoadSeaHelmOptions {
  /** Load sibling configs under the nearest `seahelm_tasks` folder for cross-file references. Default true. */
  siblingLookup?: boolean;
}

interface TaskEntry {
  key: string;
  source: YamlSource;
  raw: unknown;
}

/** Loads and validates; throws the first ConfigError found (use `validateConfigs` to list all). */
export async function loadSeaHelmConfigs(paths: string[], options: LoadSeaHelmOptions = {}): Promise<LoadedConfigs> {
  const errors: ConfigError[] = [];
  const loaded = await loadSeaHelmConfigsCollecting(paths, options, errors);
  const first = errors[0];
  if (first) throw first;
  return loaded;
}

/** Like `loadSeaHelmConfigs`, but pushes every error to `errors` and returns the tasks that are valid. */
export async function loadSeaHelmConfigsCollecting(
  paths: string[],
  options: LoadSeaHelmOptions,
  errors: ConfigError[],
): Promise<LoadedConfigs> {
  const guard = async <T>(fn: () => Promise<T> | T): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (e) {
      if (ConfigError.isInstance(e)) {
        errors.push(e);
        return undefined;
      }
      throw e;
    }
  };

  const files: string[] = [];
  for (const p of paths) {
    const found = await guard(() => findConfigFiles(p));
    for (const f of found ?? []) if (!files.includes(f)) files.push(f);
  }

  const entries = new Map<string, TaskEntry>();
  const primary: string[] = [];
  for (const file of files) {
    const source = await guard(async () => parseYamlSource(file, await readText(file)));
    if (!source) continue;
    await guard(() => {
      for (const entry of taskEntries(source)) {
        const previous = entries.get(entry.key);
        if (previous) {
          const pos = nodePosition(source, nodeAtPath(source, [entry.key]).node);
          errors.push(
            new ConfigError(`duplicate task key "${entry.key}": also defined in ${previous.source.file}`, {
              ...pos,
              keyPath: [entry.key],
            }),
          );
          continue;
        }
        entries.set(entry.key, entry);
        primary.push(entry.key);
      }
    });
  }

  const auxiliaryFiles =
    options.siblingLookup === false ? [] : await loadSiblings(entries, primary, files);

  const locate = createLocator(entries);
  const root: Record<string, unknown> = {};
  for (const [key, entry] of entries) root[key] = entry.raw;
  const resolver = createResolver(root, locate);

  const tasks = new Map<string, LoadedTask>();
  for (const key of primary) {
    const entry = entries.get(key)!;
    await guard(() => {
      const resolved = resolver.resolveAt([key]);
      const parsed = seaHelmTaskSchema.safeParse(resolved);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) errors.push(issueToConfigError(issue, [key], locate));
        return;
      }
      tasks.set(key, { key, file: entry.source.file, config: parsed.data });
    });
  }
  return { tasks, files, auxiliaryFiles, locate };
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new ConfigError(`cannot read config file: ${(e as Error).message}`, { file });
  }
}

function taskEntries(source: YamlSource): TaskEntry[] {
  const value: unknown = source.doc.toJS({ maxAliasCount: 1000 });
  if (value === null || value === undefined) return []; // a file holding only comments
  if (!isPlainObject(value)) {
    throw new ConfigError("a SEA-HELM config file must be a mapping of task keys", {
      ...nodePosition(source, source.doc.contents),
      expected: "mapping",
    });
  }
  const out: TaskEntry[] = [];
  for (const [key, raw] of Object.entries(value)) {
    if (!isPlainObject(raw) && !(typeof raw === "string" && raw.includes("${"))) {
      throw new ConfigError("a task must be a mapping", {
        ...nodePosition(source, nodeAtPath(source, [key]).node),
        keyPath: [key],
        expected: "mapping",
      });
    }
    out.push({ key, source, raw });
  }
  return out;
}

/** Task keys referenced by `${task...}` anywhere inside `value`. */
function referencedTasks(value: unknown, out: Set<string>): void {
  if (typeof value === "string") {
    for (const m of value.matchAll(/\$\{\s*([^.\s${}:[\]]+)/g)) out.add(m[1]!);
  } else if (Array.isArray(value)) {
    for (const v of value) referencedTasks(v, out);
  } else if (isPlainObject(value)) {
    for (const v of Object.values(value)) referencedTasks(v, out);
  }
}

async function loadSiblings(entries: Map<string, TaskEntry>, primary: string[], files: string[]): Promise<string[]> {
  const loadedRoots = new Set<string>();
  const auxiliary: string[] = [];
  const seen = new Set(files);
  // Repeat: an auxiliary task may refer onwards to tasks in yet another tasks root.
  let pending = [...primary];
  while (pending.length > 0) {
    const missingByRoot = new Map<string, boolean>();
    for (const key of pending) {
      const entry = entries.get(key)!;
      const refs = new Set<string>();
      referencedTasks(entry.raw, refs);
      if ([...refs].some((r) => !entries.has(r))) {
        const root = nearestTasksRoot(entry.source.file);
        if (root && !loadedRoots.has(root)) missingByRoot.set(root, true);
      }
    }
    pending = [];
    for (const root of missingByRoot.keys()) {
      loadedRoots.add(root);
      for (const file of await findConfigFiles(root)) {
        if (seen.has(file)) continue;
        seen.add(file);
        let source: YamlSource;
        let list: TaskEntry[];
        try {
          source = parseYamlSource(file, await readText(file));
          list = taskEntries(source);
        } catch {
          continue; // a broken sibling only matters if it is referenced; the missing-key error says so
        }
        auxiliary.push(file);
        for (const entry of list) {
          if (entries.has(entry.key)) continue;
          entries.set(entry.key, entry);
          pending.push(entry.key);
        }
      }
    }
  }
  return auxiliary.map((f) => path.resolve(f));
}

/** Finds the YAML node of a key path; through a whole-value `${ref}` it continues in the referenced node. */
function createLocator(entries: Map<string, TaskEntry>): (keyPath: KeyPath) => Position {
  const locate = (keyPath: KeyPath, hops: number): Position => {
    const entry = entries.get(String(keyPath[0]));
    if (!entry) return {};
    const { node, depth } = nodeAtPath(entry.source, keyPath);
    if (depth < keyPath.length && hops < 20 && isScalar(node) && typeof node.value === "string") {
      try {
        const segments = parseInterpolation(node.value);
        const ref = segments[0];
        if (segments.length === 1 && ref?.kind === "ref" && ref.body.every((b) => b.kind === "text")) {
          const body = ref.body.map((b) => (b.kind === "text" ? b.text : "")).join("");
          const target = parseRefPath(body, keyPath.slice(0, depth));
          const inner = locate([...target, ...keyPath.slice(depth)], hops + 1);
          if (inner.file !== undefined) return inner;
        }
      } catch {
        // fall through to the position of the reference itself
      }
    }
    return nodePosition(entry.source, node);
  };
  return (keyPath) => locate(keyPath, 0);
}
