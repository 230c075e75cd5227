/**
 * SEA-HELM YAML as a `ConfigDialectV1`: `config.yaml` files (or folders holding them) become
 * TaskSpecs. Everything SEA-HELM-specific stays behind this seam.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { type ConfigDialectV1, ConfigError, type DialectLoadOptions, type TaskSpec } from "@yardstick/core";
import { parseDocument } from "yaml";
import { checkJudgeConfigs } from "./check-judge-config.js";
import { checkTemplateKeys } from "./check-template-keys.js";
import { CONFIG_FILE_NAME, nearestTasksRoot } from "./find-configs.js";
import { type LoadedConfigs, loadSeaHelmConfigs, loadSeaHelmConfigsCollecting } from "./load-seahelm.js";
import { isPlainObject } from "./python-str.js";
import { DEFAULT_MAX_THINK_TOKENS, loadReasoningConfig, loadSeaHelmConstants } from "./seahelm-constants.js";
import { selectSuite } from "./select-suite.js";
import { looksBinary } from "./syntax-check.js";
import { SEAHELM_DIALECT_ID, toTaskSpecs } from "./to-task-specs.js";

export const TASK_CONFIG_FILE_NAME = "task_config.yaml";
export const CONSTANTS_FILE_NAME = "constants.yaml";
export const REASONING_CONFIG_FILE_NAME = "reasoning_generation_config.yaml";
/** Upstream keeps its chat templates in `chat_templates/` beside `seahelm_tasks/`. */
export const BASE_MODEL_TEMPLATE_PATH = path.join("chat_templates", "base_model.jinja");

/**
 * An optional ability beyond `ConfigDialectV1`: every problem of a config instead of only the first,
 * for `yardstick validate`. A dialect without it has its first `load` error reported.
 */
export interface ListsConfigProblems {
  listProblems(path: string): Promise<ConfigError[]>;
}

export function listsConfigProblems(dialect: ConfigDialectV1): dialect is ConfigDialectV1 & ListsConfigProblems {
  return typeof (dialect as Partial<ListsConfigProblems>).listProblems === "function";
}

/**
 * An optional ability: what a named suite lists that selects nothing here (a name no config defines,
 * a task without that language), one message per name, for `validate` and `ls`.
 */
export interface ListsSuiteGaps {
  listSuiteGaps(path: string, suite: string): Promise<string[]>;
}

export function listsSuiteGaps(dialect: ConfigDialectV1): dialect is ConfigDialectV1 & ListsSuiteGaps {
  return typeof (dialect as Partial<ListsSuiteGaps>).listSuiteGaps === "function";
}

export type SeaHelmDialect = ConfigDialectV1 & ListsConfigProblems & ListsSuiteGaps;

export function createSeaHelmDialect(): SeaHelmDialect {
  return {
    specVersion: "v1",
    id: SEAHELM_DIALECT_ID,
    description: `a SEA-HELM ${CONFIG_FILE_NAME}, a folder with ${CONFIG_FILE_NAME} files in it, or another YAML file of SEA-HELM tasks`,
    detect: detectSeaHelm,
    async load(configPath, options = {}) {
      const loaded = await loadSeaHelmConfigs([configPath]);
      return selectTaskSpecs(loaded, configPath, options);
    },
    async listProblems(configPath) {
      const errors: ConfigError[] = [];
      try {
        const loaded = await loadSeaHelmConfigsCollecting([configPath], {}, errors);
        await checkTemplateKeys(loaded, errors);
        checkJudgeConfigs(loaded, errors);
      } catch (e) {
        if (!ConfigError.isInstance(e)) throw e;
        errors.push(e);
      }
      return errors;
    },
    async listSuiteGaps(configPath, suite) {
      const loaded = await loadSeaHelmConfigs([configPath]);
      const selection = await selectSuite(loaded, await findTaskConfig(configPath, loaded.files), suite);
      const byName = new Map<string, { reason: string; languages: string[] }>();
      for (const u of selection.unknown) {
        const id = `${u.reason}\0${u.name}`;
        const entry = byName.get(id) ?? { reason: u.reason, languages: [] };
        byName.set(id, entry);
        entry.languages.push(u.language);
      }
      return [...byName].map(([id, { reason, languages }]) => {
        const name = id.slice(id.indexOf("\0") + 1);
        return reason === "undefined"
          ? `suite "${suite}" lists "${name}" (${languages.join(", ")}), which is neither a task nor an aggregation group of these configs`
          : `suite "${suite}" lists task "${name}" for ${languages.join(", ")}, which it does not define`;
      });
    },
  };
}

export const seahelmDialect: SeaHelmDialect = createSeaHelmDialect();

/** True for a `config.yaml` (or a YAML file that reads as SEA-HELM tasks) or a folder with `config.yaml` files; never throws. */
export async function detectSeaHelm(configPath: string): Promise<boolean> {
  try {
    const info = await stat(configPath);
    if (info.isDirectory()) return await holdsConfigFile(configPath);
    if (!info.isFile() || (await looksBinary(configPath))) return false;
    // A config.yaml is claimed even when broken, so its load error names the line at fault.
    if (path.basename(configPath) === CONFIG_FILE_NAME) return true;
    return /\.ya?ml$/i.test(configPath) && (await readsAsTasks(configPath));
  } catch {
    return false;
  }
}

async function holdsConfigFile(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.some((e) => e.isFile() && e.name === CONFIG_FILE_NAME);
}

/** Another YAML file counts when it is a mapping of tasks, each a mapping with `languages`. */
async function readsAsTasks(file: string): Promise<boolean> {
  const doc = parseDocument(await readFile(file, "utf8"));
  if (doc.errors.length > 0) return false;
  const value: unknown = doc.toJS({ maxAliasCount: 1000 });
  if (!isPlainObject(value)) return false;
  const tasks = Object.values(value);
  return tasks.length > 0 && tasks.every((t) => isPlainObject(t) && isPlainObject(t.languages));
}

/**
 * Applies the load options. Filters select; they never fail on names this config lacks, so that
 * `loadTasks` can spread one `--tasks` list over several configs and report a name none of them has.
 * A suite is the exception: its `task_config.yaml` says which languages exist, so an unknown one is named.
 */
async function selectTaskSpecs(loaded: LoadedConfigs, configPath: string, options: DialectLoadOptions): Promise<TaskSpec[]> {
  const constantsFile = await findRootFile(configPath, loaded.files, CONSTANTS_FILE_NAME);
  const constants = constantsFile === undefined ? undefined : await loadSeaHelmConstants(constantsFile);
  const base = options.baseModel === true;
  const chatTemplate = base && options.baseModelEndpoint !== "chat" ? await findBaseModelTemplate(configPath, loaded.files) : undefined;
  let specs = toTaskSpecs(loaded, {
    ...(options.languages ? { languages: options.languages } : {}),
    ...(constants ? { constants } : {}),
    ...(options.numFewshot !== undefined ? { numFewshot: options.numFewshot } : {}),
    ...(options.reasoning ? { thinkTokens: await thinkTokens(configPath, loaded.files) } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(base ? { modelKind: "base" as const } : {}),
    ...(base && options.bosToken !== undefined ? { bosToken: options.bosToken } : {}),
    ...(base && options.baseModelEndpoint !== undefined ? { baseModelEndpoint: options.baseModelEndpoint } : {}),
    ...(chatTemplate !== undefined ? { chatTemplate } : {}),
  });
  if (options.tasks) {
    const wanted = new Set(options.tasks);
    specs = specs.filter((s) => wanted.has(s.name) || (s.aggregationGroup !== undefined && wanted.has(s.aggregationGroup)));
  }
  if (options.suite !== undefined) {
    const suiteFile = await findTaskConfig(configPath, loaded.files);
    const suite = await selectSuite(loaded, suiteFile, options.suite);
    const unknown = (options.languages ?? []).filter((l) => !suite.byLanguage.has(l));
    if (unknown.length > 0) {
      throw new ConfigError(`suite "${options.suite}" has no language ${unknown.map((l) => `"${l}"`).join(", ")}`, {
        file: suiteFile,
        keyPath: [options.suite],
        expected: `one of ${[...suite.byLanguage.keys()].join(", ")}`,
      });
    }
    // In the suite's order (language, then task), as upstream runs them.
    const rank = new Map<string, number>();
    for (const [language, keys] of suite.byLanguage) for (const k of keys) rank.set(`${k}/${language}`, rank.size);
    specs = specs.filter((s) => rank.has(`${s.name}/${s.language}`));
    specs.sort((a, b) => rank.get(`${a.name}/${a.language}`)! - rank.get(`${b.name}/${b.language}`)!);
  }
  return specs;
}

/** `max_think_tokens` of `reasoning_generation_config.yaml` beside the task folders, else upstream's default. */
async function thinkTokens(configPath: string, files: readonly string[]): Promise<number> {
  const file = await findRootFile(configPath, files, REASONING_CONFIG_FILE_NAME);
  if (file === undefined) return DEFAULT_MAX_THINK_TOKENS;
  return (await loadReasoningConfig(file)).reasoning_generation_kwargs.max_think_tokens;
}

/**
 * The text of upstream's `chat_templates/base_model.jinja` when the configs sit in a SEA-HELM checkout
 * (or the given folder has one); undefined means the builders use yardstick's equivalent template.
 */
async function findBaseModelTemplate(configPath: string, files: readonly string[]): Promise<string | undefined> {
  const candidates: string[] = [];
  const abs = path.resolve(configPath);
  if ((await stat(abs)).isDirectory()) candidates.push(path.join(abs, BASE_MODEL_TEMPLATE_PATH));
  const root = files[0] === undefined ? undefined : nearestTasksRoot(files[0]);
  if (root) candidates.push(path.join(path.dirname(root), BASE_MODEL_TEMPLATE_PATH));
  for (const candidate of candidates) {
    const text = await readFile(candidate, "utf8").catch(() => undefined);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** SEA-HELM keeps its suites in `task_config.yaml` at the root of `seahelm_tasks`. */
async function findTaskConfig(configPath: string, files: readonly string[]): Promise<string> {
  const found = await findRootFile(configPath, files, TASK_CONFIG_FILE_NAME);
  if (found !== undefined) return found;
  const abs = path.resolve(configPath);
  throw new ConfigError(`a suite was asked for, but there is no ${TASK_CONFIG_FILE_NAME} for ${abs}`, {
    file: abs,
    expected: `${TASK_CONFIG_FILE_NAME} in the given folder or in the enclosing seahelm_tasks folder`,
  });
}

/** A file SEA-HELM keeps beside its task folders: in the given folder, else in the enclosing `seahelm_tasks`. */
async function findRootFile(configPath: string, files: readonly string[], name: string): Promise<string | undefined> {
  const candidates: string[] = [];
  const abs = path.resolve(configPath);
  if ((await stat(abs)).isDirectory()) candidates.push(path.join(abs, name));
  const root = files[0] === undefined ? undefined : nearestTasksRoot(files[0]);
  if (root) candidates.push(path.join(root, name));
  for (const candidate of candidates) {
    if (await stat(candidate).then((s) => s.isFile(), () => false)) return candidate;
  }
  return undefined;
}
