import type {
  ConfigDialectV1,
  DataloaderV1,
  JudgeV2,
  MetricV1,
  ModelProviderV1,
  PostprocessorV1,
  PromptBuilderV1,
} from "./contracts.js";
import { NoSuchPluginError } from "./errors.js";

/** A registry entry is either a ready plugin or a factory that makes one from options. */
export type PluginEntry<T> = T | ((options: Record<string, unknown>) => T);

export interface PluginKinds {
  models: ModelProviderV1;
  dataloaders: DataloaderV1;
  promptBuilders: PromptBuilderV1;
  postprocessors: PostprocessorV1;
  metrics: MetricV1;
  judges: JudgeV2;
  dialects: ConfigDialectV1;
}

export type PluginKind = keyof PluginKinds;

export type RegistryInit = { [K in PluginKind]?: Record<string, PluginEntry<PluginKinds[K]>> };

const KIND_NAMES: Record<PluginKind, string> = {
  models: "model provider",
  dataloaders: "dataloader",
  promptBuilders: "prompt builder",
  postprocessors: "postprocessor",
  metrics: "metric",
  judges: "judge",
  dialects: "config dialect",
};

export interface Registry {
  /** Returns the plugin for an id, calling its factory with `options` when it is one. */
  get<K extends PluginKind>(kind: K, id: string, options?: Record<string, unknown>): PluginKinds[K];
  has(kind: PluginKind, id: string): boolean;
  ids(kind: PluginKind): string[];
  /** Adds or replaces entries; returns the same registry. */
  register<K extends PluginKind>(kind: K, id: string, entry: PluginEntry<PluginKinds[K]>): Registry;
  /** A new registry with `more` layered over this one's entries. */
  extend(more: RegistryInit): Registry;
}

export function createRegistry(init: RegistryInit = {}): Registry {
  const tables = new Map<PluginKind, Map<string, PluginEntry<unknown>>>();
  for (const kind of Object.keys(KIND_NAMES) as PluginKind[]) {
    tables.set(kind, new Map(Object.entries(init[kind] ?? {})));
  }
  const table = (kind: PluginKind): Map<string, PluginEntry<unknown>> => {
    const t = tables.get(kind);
    if (!t) throw new TypeError(`unknown plugin kind ${String(kind)}`);
    return t;
  };

  const registry: Registry = {
    get(kind, id, options = {}) {
      const entry = table(kind).get(id);
      if (entry === undefined) throw new NoSuchPluginError(KIND_NAMES[kind], id, [...table(kind).keys()]);
      return (typeof entry === "function" ? (entry as (o: Record<string, unknown>) => unknown)(options) : entry) as never;
    },
    has: (kind, id) => table(kind).has(id),
    ids: (kind) => [...table(kind).keys()].sort(),
    register(kind, id, entry) {
      table(kind).set(id, entry as PluginEntry<unknown>);
      return registry;
    },
    extend(more) {
      const merged: RegistryInit = {};
      for (const kind of Object.keys(KIND_NAMES) as PluginKind[]) {
        (merged as Record<string, unknown>)[kind] = { ...Object.fromEntries(table(kind)), ...(more[kind] ?? {}) };
      }
      return createRegistry(merged);
    },
  };
  return registry;
}

/**
 * What a separately installed plugin package exports (as its default export or as `plugins`), so the
 * runner can load it by package name: the same shape as `createRegistry`'s argument.
 */
export type PluginModule = RegistryInit;
