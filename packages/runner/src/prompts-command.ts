import { resolve } from "node:path";
import { type CliCommandSpec, defineFlags, type Registry } from "@yardstick/core";
import { type PreviewGap, RunStore, parseShard, previewRequests } from "@yardstick/engine";
import { checkFlag, intFlag, listFlag, parseFlags, requireConfigPaths } from "./args.js";
import { BASE_MODEL_FLAGS, baseModelLoadOptions } from "./base-model-flags.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { loadNamedMetricPackages } from "./metric-packages.js";
import { loadTaskSpecs } from "./tasks.js";

const PROMPTS_FLAGS = defineFlags({
  tasks: { type: "string", value: "a,b", default: "every task", description: "only these tasks or aggregation groups" },
  langs: { type: "string", value: "x,y", default: "every language", description: "only these languages" },
  suite: { type: "string", value: "NAME", description: "only the tasks of a named suite (SEA-HELM's task_config.yaml)" },
  limit: { type: "string", value: "N", default: "every sample", description: "only the first N samples of each task, as run --limit" },
  "num-fewshot": { type: "string", value: "N", default: "the config's", description: "few-shot examples per prompt in place of each config's count" },
  seed: { type: "string", value: "N", default: "1234", description: "the seed sent with each request (and UltraEval's few-shot draw), as run --seed" },
  reasoning: { type: "boolean", description: "the model reasons first: max_tokens raised as run --reasoning does" },
  ...BASE_MODEL_FLAGS,
  shard: { type: "string", value: "I/N", description: "only the samples of this shard, as run --shard" },
  from: {
    type: "string",
    value: "RUN",
    description: "a run store whose stored answers build the later turns of multi-turn tasks (without it only the turns that need no answer are printed)",
  },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first" },
});

export const PROMPTS_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick prompts",
    summary:
      'Prints the requests a run would send, one JSON line each: {"task", "sample", "turn", "request"}, the request as the engine sends it (chat messages or a completion prompt, with its generation params). Needs no model and sends nothing.',
    positionals: [{ name: "<config-file-or-folder>...", description: "config files, or folders searched for them" }],
    flags: PROMPTS_FLAGS,
    notes: [
      "A later turn of a multi-turn task (MT-Bench) is built from the model's answer to the turn before: without --from only turn 1 is printed, and stderr says which turns were left out.",
    ],
  },
];

/** `yardstick prompts CONFIG... --tasks t --langs l`: the exact requests, without a model. */
export async function promptsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, PROMPTS_FLAGS);
  const paths = requireConfigPaths(positionals, "prompts").map((p) => resolve(io.cwd, p));
  const limit = values.limit === undefined ? undefined : checkFlag("limit", intFlag(1), values.limit);
  const numFewshot = values["num-fewshot"] === undefined ? undefined : checkFlag("num-fewshot", intFlag(0, 1000), values["num-fewshot"]);
  const seed = values.seed === undefined ? 1234 : checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const baseModel = baseModelLoadOptions(values);

  let registry: Registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  if (values.plugin?.length) registry = registry.extend(await loadPluginPackages(values.plugin, io.cwd));
  const loaded = await loadTaskSpecs(paths, {
    dialects: dialectsOf(registry),
    tasks: listFlag(values.tasks),
    languages: listFlag(values.langs),
    ...(values.suite !== undefined ? { suite: values.suite } : {}),
    ...(numFewshot !== undefined ? { numFewshot } : {}),
    seed,
    ...(values.reasoning ? { reasoning: true } : {}),
    ...baseModel,
    baseDir: io.cwd,
  });
  if (loaded.plugins.length > 0) registry = registry.extend(await loadPluginPackages(loaded.plugins, loaded.baseDir));
  const tasks = loaded.tasks;
  registry = (await loadNamedMetricPackages(tasks, registry, [io.cwd])).registry;
  // As `run`: a given --seed is sent with every task's requests, also those of dialects without a seed of their own.
  if (values.seed !== undefined) for (const t of tasks) t.generation = { ...t.generation, seed };

  const gaps = new Map<string, PreviewGap[]>();
  for await (const item of previewRequests({
    tasks,
    registry,
    baseDir: loaded.baseDir,
    ...(limit !== undefined ? { limit } : {}),
    ...(shard ? { shard } : {}),
    ...(values.from !== undefined ? { from: new RunStore(resolve(io.cwd, values.from)) } : {}),
  })) {
    if (item.kind === "request") {
      io.stdout.write(`${JSON.stringify(item.value)}\n`);
    } else {
      const list = gaps.get(item.value.task) ?? [];
      gaps.set(item.value.task, list);
      list.push(item.value);
    }
  }
  for (const [task, list] of gaps) {
    const first = list[0]!;
    const what = first.call ? "the echo request" : `turn ${first.turn} and later`;
    io.stderr.write(`note: task ${task}: ${what} of ${list.length} sample(s) not printed: ${first.reason}\n`);
  }
  return 0;
}
