import { ConfigError, NumpyGenerator } from "@yardstick/core";
import { balancedAccuracy } from "./classification.js";

/**
 * SEA-HELM's leaderboard aggregation over repeated runs (helpers/results_aggregation.ipynb): every
 * bootstrap takes each question's score from one randomly chosen run, recomputes the task score,
 * and the per-bootstrap lists are averaged up the hierarchy task/group → competency → language →
 * overall (plus `sea_` over the SEA languages). Each level reports the mean of its list and the
 * standard error sd/√n. Draws come from numpy's `default_rng(94370244)` in upstream's order, so the
 * numbers match upstream's `<model>_scores.yaml`.
 */

export const LEADERBOARD_SEED = 94370244;
export const LEADERBOARD_BOOTSTRAPS = 30;
export const SEA_LANGUAGES = ["id", "vi", "th", "ta", "tl", "ms", "my"] as const;

/** One task in one language, with its per-question scores from every run. */
export interface RunsTaskScores {
  name: string;
  language: string;
  competency: string;
  aggregationGroup?: string;
  /** The config's `max_n_runs`: runs from this index on skipped the task. */
  maxNRuns?: number;
  /** Per run, the per-question scores (null counts as 0); `[]` when the run lacks the task. */
  runs: number[][];
  /** The gold labels of the first run's rows (what upstream reads for balanced accuracy). */
  labels: unknown[];
}

export interface LeaderboardOptions {
  bootstraps?: number;
  seed?: number;
  seaLanguages?: readonly string[];
}

export interface LevelScore {
  mean: number;
  stderr: number;
  mean_list: number[];
}

type Node = Record<string, unknown>;

/** Neumaier-compensated sum: upstream's `statistics` works in exact fractions, so a list of equal values has no spread. */
function accurateSum(xs: readonly number[]): number {
  let sum = 0;
  let compensation = 0;
  for (const x of xs) {
    const t = sum + x;
    compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  return sum + compensation;
}

const meanOf = (xs: readonly number[]): number => accurateSum(xs) / xs.length;

/** Upstream's `calculate_stderr`: sqrt(sample variance / n); 0 for an empty list. */
export function standardError(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  if (xs.length === 1) return Number.NaN;
  const m = meanOf(xs);
  const variance = accurateSum(xs.map((x) => (x - m) ** 2)) / (xs.length - 1);
  return Math.sqrt(variance / xs.length);
}

function level(list: number[], prefix = ""): Record<string, unknown> {
  return { [`${prefix}mean`]: meanOf(list), [`${prefix}stderr`]: standardError(list), [`${prefix}mean_list`]: list };
}

/** Element-wise mean of equally long lists (numpy `mean(axis=0)`). */
function columnMeans(lists: readonly number[][]): number[] {
  const width = lists[0]?.length ?? 0;
  return Array.from({ length: width }, (_, j) => lists.reduce((a, l) => a + l[j]!, 0) / lists.length);
}

/** (x - 1/k) / (1 - 1/k), floored at 0, as a percentage: balanced accuracy above chance. */
function normalizedPercent(score: number, classes: number): number {
  const chance = 1 / classes;
  return Math.max((score - chance) / (1 - chance), 0) * 100;
}

/** Python's `len(set(labels))`, or undefined where Python's set would raise (unhashable rows). */
function distinctLabels(labels: readonly unknown[]): number | undefined {
  if (labels.some((l) => l !== null && typeof l === "object")) return undefined;
  return new Set(labels.map((l) => (typeof l === "string" ? `s${l}` : `v${String(l)}`))).size;
}

/** Balanced accuracy of predictions that are the label where `hit[i]` holds, "" elsewhere. */
function balancedAccuracyOfHits(labels: readonly string[], hit: (i: number) => boolean): number {
  return balancedAccuracy(
    labels,
    labels.map((l, i) => (hit(i) ? l : "")),
  );
}

function taskBootstrap(task: RunsTaskScores, generator: NumpyGenerator, bootstraps: number): { node: Node; incomplete: boolean } {
  const valid = task.runs.filter((r) => r.length > 0);
  if (valid.length === 0) return { node: { mean: 0, stderr: 0, mean_list: new Array(bootstraps).fill(0) }, incomplete: false };
  const labels = task.labels.map((l) => String(l));
  if (task.maxNRuns === 1) {
    // Upstream's logprob branch (taken for every max_n_runs: 1 task, since use_logprobs defaults to
    // true there): a question counts as right when a uniform draw exceeds its score.
    const scores = task.runs[0]!;
    const list: number[] = [];
    for (let b = 0; b < bootstraps; b++) {
      const draws = generator.randomArray(scores.length);
      list.push(normalizedPercent(balancedAccuracyOfHits(labels, (i) => draws[i]! > scores[i]!), distinctLabels(task.labels) ?? labels.length));
    }
    return { node: level(list), incomplete: false };
  }
  const questions = valid[0]!.length;
  for (const run of valid) {
    if (run.length !== questions) {
      throw new ConfigError(`task ${task.name}/${task.language}: one run scored ${questions} questions and another ${run.length}; every run must score the same rows (same data and --limit)`);
    }
  }
  const distinct = distinctLabels(task.labels);
  const multiChoice = (task.labels.length > 0 && distinct !== undefined && distinct !== task.labels.length) || task.name.includes("global_mmlu_lite");
  const picks = generator.integers(0, valid.length, bootstraps * questions);
  const list: number[] = [];
  const maxScore = Math.max(...task.runs.flat());
  for (let b = 0; b < bootstraps; b++) {
    const sampled = (q: number): number => valid[picks[b * questions + q]!]![q]!;
    if (multiChoice) {
      const classes = task.name.includes("global_mmlu_lite") ? 4 : (distinct ?? labels.length);
      // numpy's astype(int) truncates toward zero: a partial score is a miss.
      list.push(normalizedPercent(balancedAccuracyOfHits(labels, (q) => Math.trunc(sampled(q)) !== 0), classes));
    } else {
      let sum = 0;
      for (let q = 0; q < questions; q++) sum += sampled(q);
      // Scores kept in [0, 1] are scaled to percentages (upstream's rule on the maximum of all runs).
      list.push(maxScore <= 1 ? (sum / questions) * 100 : sum / questions);
    }
  }
  const node = level(list);
  const incomplete = valid.length !== task.runs.length;
  if (incomplete) node.is_incomplete = true;
  return { node, incomplete };
}

export interface LeaderboardResult {
  /** `<model>_scores.yaml`'s tree: language → competency → {tasks, aggregation_groups} with mean, stderr, mean_list at every level. */
  scores: Node;
  /** Tasks some run lacked, as "task/lang". */
  incomplete: string[];
}

export function leaderboardBootstrap(tasks: readonly RunsTaskScores[], options: LeaderboardOptions = {}): LeaderboardResult {
  const bootstraps = options.bootstraps ?? LEADERBOARD_BOOTSTRAPS;
  const seaLanguages = new Set(options.seaLanguages ?? SEA_LANGUAGES);
  const generator = new NumpyGenerator(options.seed ?? LEADERBOARD_SEED);
  // Upstream walks the run config's tasks, each over its languages: draws happen in that order.
  const names = [...new Set(tasks.map((t) => t.name))];
  const ordered = names.flatMap((n) => tasks.filter((t) => t.name === n));
  const scores: Node = {};
  for (const lang of new Set(ordered.map((t) => t.language))) scores[lang] = {};
  const incomplete: string[] = [];
  const lengths = new Map<Node, number>();
  for (const task of ordered) {
    const langNode = scores[task.language] as Node;
    langNode[task.competency] ??= { tasks: {}, aggregation_groups: {} };
    const compNode = langNode[task.competency] as { tasks: Node; aggregation_groups: Node };
    const { node, incomplete: isIncomplete } = taskBootstrap(task, generator, bootstraps);
    if (isIncomplete) incomplete.push(`${task.name}/${task.language}`);
    compNode.tasks[task.name] = node;
    if (task.aggregationGroup) {
      const group = task.aggregationGroup.replace("-logprobs", "");
      node.remarks = `Using scores for aggregation group ${group.toUpperCase()} instead of individual task scores.`;
      node.ignore = true;
      node.aggregation_group = group;
      compNode.aggregation_groups[group] ??= {};
      const member: Node = { mean_list: node.mean_list };
      lengths.set(member, task.runs.find((r) => r.length > 0)?.length ?? task.runs[0]?.length ?? 0);
      (compNode.aggregation_groups[group] as Node)[task.name] = member;
    }
  }
  const overallLists: number[][] = [];
  for (const lang of Object.keys(scores)) {
    const langNode = scores[lang] as Node;
    const langLists: number[][] = [];
    for (const comp of Object.keys(langNode)) {
      const compNode = langNode[comp] as { tasks: Record<string, Node>; aggregation_groups: Record<string, Record<string, Node>> };
      const compLists: number[][] = [];
      for (const node of Object.values(compNode.tasks)) if (!node.ignore) compLists.push(node.mean_list as number[]);
      for (const [group, members] of Object.entries(compNode.aggregation_groups)) {
        const memberNodes = Object.values(members);
        let list: number[];
        if (group === "global_mmlu_lite") {
          // Weighted by each member's question count.
          const total = memberNodes.reduce((a, m) => a + (lengths.get(m) ?? 0), 0);
          list = Array.from({ length: bootstraps }, (_, b) => memberNodes.reduce((a, m) => a + (m.mean_list as number[])[b]! * (lengths.get(m) ?? 0), 0) / total);
        } else {
          list = columnMeans(memberNodes.map((m) => m.mean_list as number[]));
        }
        compLists.push(list);
        compNode.aggregation_groups[group] = level(list) as Record<string, Node>;
      }
      const compList = columnMeans(compLists);
      langLists.push(compList);
      Object.assign(compNode, level(compList));
    }
    const langList = columnMeans(langLists);
    overallLists.push(langList);
    Object.assign(langNode, level(langList));
  }
  Object.assign(scores, level(columnMeans(overallLists)));
  const seaLists = Object.keys(scores)
    .filter((lang) => seaLanguages.has(lang))
    .map((lang) => (scores[lang] as Node).mean_list as number[]);
  if (seaLists.length > 0) Object.assign(scores, level(columnMeans(seaLists), "sea_"));
  if (incomplete.length > 0) scores.is_incomplete = true;
  return { scores, incomplete };
}
