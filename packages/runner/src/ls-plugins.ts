import type { ModelProviderV1, PluginKind, Registry, RegistryInit } from "@yardstick/core";
import { builtinJudgeMetrics } from "@yardstick/judges";

/**
 * `yardstick ls metrics|providers|...`: the plugins of the registry (built-ins and `--plugin`
 * packages), each with a one-line description and what it needs to run.
 */

/** The listing names a user types, and the registry kind each one lists. */
export const LISTABLE_KINDS = {
  metrics: "metrics",
  providers: "models",
  dataloaders: "dataloaders",
  postprocessors: "postprocessors",
  judges: "judges",
  dialects: "dialects",
  "prompt-builders": "promptBuilders",
} as const satisfies Record<string, PluginKind>;

export type ListableKind = keyof typeof LISTABLE_KINDS;

/** Singular and registry spellings accepted for the listing names; `plugins` lists every kind. */
const ALIASES: Record<string, ListableKind> = {
  metric: "metrics",
  provider: "providers",
  models: "providers",
  model: "providers",
  dataloader: "dataloaders",
  postprocessor: "postprocessors",
  judge: "judges",
  dialect: "dialects",
  "prompt-builder": "prompt-builders",
  promptBuilders: "prompt-builders",
};

/** The listing a positional names (`metrics`, `provider`, ...), `all` for `plugins`, or undefined when it names none. */
export function listingOf(word: string): ListableKind | "all" | undefined {
  if (word === "plugins") return "all";
  if (word in LISTABLE_KINDS) return word as ListableKind;
  return ALIASES[word];
}

export interface PluginRow {
  id: string;
  description: string;
  /** What it takes to use it: inputs, options, flags, environment, capabilities. */
  needs: string[];
  /** "built-in", or the `--plugin` package that registered (or replaced) it. */
  from: string;
}

/** Built-in providers are factories: what they need is known here rather than by building one. */
const PROVIDERS: Record<string, { description: string; needs: string[] }> = {
  "openai-compatible": {
    description: "any server speaking the OpenAI API (vLLM, SGLang, llama.cpp, OpenAI): /chat/completions and /completions",
    needs: [
      "--base-url URL (ending in /v1)",
      "API key: --api-key-env NAME (optional)",
      "capabilities: generate, tools, loglikelihood (/completions echo + logprobs), batch (OpenAI Batch)",
    ],
  },
  anthropic: {
    description: "Anthropic's Messages API",
    needs: [
      "base URL: https://api.anthropic.com unless --base-url",
      "API key: --api-key-env NAME (e.g. ANTHROPIC_API_KEY; required for api.anthropic.com)",
      "capabilities: generate, tools, batch (Message Batches); no loglikelihood",
    ],
  },
  "baseline:random": {
    description: "answers a random label of the task's label set (seeded by --seed); sends no request",
    needs: ["a task with a label set", "capabilities: generate"],
  },
  "baseline:majority": {
    description: "answers the task's most frequent label; sends no request",
    needs: ["a task with a label set", "capabilities: generate"],
  },
};

const DATALOADERS: Record<string, { description: string; needs: string[] }> = {
  "seahelm-local": { description: "SEA-HELM rows from a local .jsonl or .json file", needs: ["options: path, labelField, idFallback, limit"] },
  huggingface: {
    description: "rows of a Hugging Face Hub dataset (parquet files or the dataset viewer), cached",
    needs: ["options: repo, name, split", "env: HF_TOKEN for gated datasets, HF_ENDPOINT for a mirror"],
  },
  "seahelm-healthbench": {
    description: "SEA-HELM HealthBench rows from a Hub dataset snapshot",
    needs: ["options: subset or file, dir, revision, limit", "env: HF_TOKEN, HF_HUB_CACHE, HF_HUB_OFFLINE"],
  },
  "seahelm-aa-lcr": {
    description: "SEA-HELM AA-LCR questions with their document sets from a Hub snapshot",
    needs: ["options: repo, rows, documents", "env: HF_TOKEN, HF_HUB_CACHE, HF_HUB_OFFLINE"],
  },
  "seahelm-livecodebench": {
    description: "SEA-HELM LiveCodeBench problems (releases up to a version) from a Hub snapshot",
    needs: ["options: version, repo, dir, revision, limit", "env: HF_TOKEN, HF_HUB_CACHE, HF_HUB_OFFLINE"],
  },
  "seahelm-niah": { description: "SEA-HELM needle-in-a-haystack prompts, generated", needs: ["options: language, context_size, random_seed, num_samples, min_num_keys, books, vocab"] },
  "seahelm-cwe": {
    description: "SEA-HELM common-word-extraction prompts, generated",
    needs: ["options: language, context_size, random_seed, num_samples, num_common_words, num_repeats_common_words"],
  },
  ultraeval: { description: "UltraEval dataset rows through the config's transform", needs: ["options: path, transform, fewshot, fewshotSeed, root", "python3 for transforms not ported"] },
};

const JUDGES: Record<string, { description: string; needs: string[] }> = {
  "seahelm-criteria": {
    description: "one judge call per criterion of a row; the reply's class maps to a score",
    needs: ["a judge model", "options: judge_prompts.criteria_prompt, classifications"],
  },
  "seahelm-healthbench": { description: "one call per HealthBench rubric item; reads criteria_met", needs: ["a judge model", "options: judge_prompts.criteria_prompt"] },
  "seahelm-pairwise": {
    description: "MT-Bench pairwise verdicts against a baseline's answers, both orders",
    needs: ["a judge model", "options: judge_prompts (without-reference), baseline_model, ties_allowed"],
  },
  "seahelm-verdict": { description: "asks whether the answer matches the official one (CORRECT/INCORRECT)", needs: ["a judge model", "options: judge_prompts.criteria_prompt, verdict_words"] },
  rubric: { description: "scores each answer against a rubric.yaml (one choice, by tool call or text)", needs: ["a judge model (tool calls help)", "options: rubric, use_tools"] },
};

/** Metrics whose inputs go beyond answer text (a loglikelihood, a label set, a program run). */
const METRIC_NEEDS: Record<string, string[]> = {
  "seahelm-logprob": ["loglikelihood answers (a provider with loglikelihood)"],
  "seahelm-minimal-pairs-logprob": ["loglikelihood answers (a provider with loglikelihood)", "sample.metadata.linguistic_phenomenon"],
  "seahelm-pragmatic-logprob": ["loglikelihood answers (a provider with loglikelihood)", "sample.metadata.linguistic_phenomenon"],
  "ultraeval:log_prob": ["loglikelihood answers (a provider with loglikelihood)"],
  "ultraeval:log_prob_mc2": ["loglikelihood answers (a provider with loglikelihood)"],
  "seahelm-f1acc": ["the task's label set"],
  "seahelm-translation": ["MetricX-24 scores: --metricx-url (a scoring endpoint) or stored in the data; without them chrF++ and 'MetricX not computed'"],
  "ultraeval:function_execution": ["python3 to run the tests"],
  "seahelm-livecodebench": ["python3 to run the tests"],
};

function metricNeeds(id: string, textPairs: boolean | undefined): string[] {
  const needs = [...(METRIC_NEEDS[id] ?? [])];
  if (id in builtinJudgeMetrics) needs.unshift("judge records (a task with a judge)");
  else needs.unshift(textPairs ? "text pairs (prediction, reference; also `yardstick score`)" : "a task's answers and samples");
  return needs;
}

/** What a provider can do, read from the methods it has. */
function providerCapabilities(p: ModelProviderV1): string {
  const caps = ["generate"];
  if (p.loglikelihood) caps.push(p.loglikelihoodBatch ? "loglikelihood (batched)" : "loglikelihood");
  return `capabilities: ${caps.join(", ")}`;
}

/** A plugin from the registry: ready plugins as they are, factories built with a placeholder model id (a factory that refuses gives no details). */
function tryGet(registry: Registry, kind: PluginKind, id: string): Record<string, unknown> | undefined {
  try {
    return registry.get(kind, id, kind === "models" ? { modelId: "model" } : {}) as unknown as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function describeOne(kind: ListableKind, id: string, registry: Registry, builtin: boolean): Omit<PluginRow, "from"> {
  const plugin = tryGet(registry, LISTABLE_KINDS[kind], id);
  const own = typeof plugin?.description === "string" ? plugin.description : undefined;
  const known =
    !builtin ? undefined : kind === "providers" ? PROVIDERS[id] : kind === "dataloaders" ? DATALOADERS[id] : kind === "judges" ? JUDGES[id] : undefined;
  switch (kind) {
    case "metrics":
      return { id, description: own ?? "", needs: metricNeeds(id, plugin?.textPairs as boolean | undefined) };
    case "providers": {
      if (known) return { id, ...known };
      const p = plugin as unknown as ModelProviderV1 | undefined;
      const needs = p ? [`--model ${id}:MODEL`, providerCapabilities(p), ...(p.needsLabelSet ? ["a task with a label set"] : [])] : [`--model ${id}:MODEL (options its factory checks)`];
      return { id, description: own ?? "", needs };
    }
    case "dialects":
      return { id, description: `tasks from ${id} config files`, needs: [own ? `detects: ${own}` : "detects its own config files"] };
    case "postprocessors":
      return {
        id,
        description: own ?? (id.startsWith("ultraeval:") ? `UltraEval's ${id.slice(10)} answer post-processing` : id === "seahelm-answer-tag" ? "SEA-HELM: the label after the task's answer tag, cleaned" : ""),
        needs: id === "seahelm-answer-tag" ? ["the task's answer_tag and label set"] : ["the answer text"],
      };
    default:
      return known ? { id, description: own ?? known.description, needs: known.needs } : { id, description: own ?? "", needs: ["options (see its package)"] };
  }
}

/** The rows of each listed kind, built-ins and plugin packages' entries alike, sorted by id. */
export function pluginRows(
  registry: Registry,
  kinds: readonly ListableKind[],
  builtinIds: (kind: PluginKind) => ReadonlySet<string>,
  packages: ReadonlyArray<{ name: string; init: RegistryInit }>,
): Partial<Record<ListableKind, PluginRow[]>> {
  const out: Partial<Record<ListableKind, PluginRow[]>> = {};
  for (const kind of kinds) {
    const registryKind = LISTABLE_KINDS[kind];
    out[kind] = registry.ids(registryKind).map((id) => {
      const pkg = [...packages].reverse().find((p) => p.init[registryKind] && id in p.init[registryKind]!);
      const row = describeOne(kind, id, registry, !pkg && builtinIds(registryKind).has(id));
      return { ...row, from: pkg ? pkg.name : "built-in" };
    });
  }
  return out;
}

/** One section per kind: each id with its description, then what it needs on an indented line (plugin packages named). */
export function formatPluginRows(rows: Partial<Record<ListableKind, PluginRow[]>>): string {
  const sections: string[] = [];
  for (const [kind, list] of Object.entries(rows) as [ListableKind, PluginRow[]][]) {
    const ids = list.map((r) => (r.from === "built-in" ? r.id : `${r.id} (${r.from})`));
    const width = Math.max(0, ...ids.map((id) => id.length));
    const lines = [`${kind} (${list.length})`];
    list.forEach((r, i) => {
      lines.push(`  ${(ids[i] ?? r.id).padEnd(width)}  ${r.description || "-"}`.trimEnd());
      if (r.needs.length > 0) lines.push(`  ${"".padEnd(width)}  needs: ${r.needs.join("; ")}`);
    });
    sections.push(lines.join("\n"));
  }
  return sections.join("\n\n");
}
