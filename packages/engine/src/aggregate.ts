/**
 * Builds the results tree in SEA-HELM's shape: language → competency → task → metrics, with
 * aggregation groups macro-averaged first and an unweighted `total` at every level.
 */
export interface TaskResult {
  key: string;
  name: string;
  language: string;
  competency: string;
  aggregationGroup?: string;
  mainScore: string;
  /** The task's value of `mainScore`, or undefined when the metric could not be computed. */
  main: number | undefined;
  metrics: Record<string, unknown>;
}

export type ResultsTree = Record<string, unknown> & { total?: number };

/**
 * A competency-specific roll-up (SEA-HELM's LINDSEA rule, say), given the competency's tasks in one
 * language: extra entries for the competency node and, when it returns one, the competency total
 * that replaces the plain mean. Injected by the runner, so the engine stays dialect-neutral.
 */
export type CompetencyRollup = (tasks: readonly TaskResult[]) => { entries: Record<string, unknown>; total?: number } | undefined;

const mean = (xs: number[]): number | undefined => (xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length);

export function aggregateResults(tasks: readonly TaskResult[], rollups: Record<string, CompetencyRollup> = {}): ResultsTree {
  const tree: ResultsTree = {};
  const langTotals: number[] = [];
  const languages = [...new Set(tasks.map((t) => t.language || "all"))];
  for (const lang of languages) {
    const langNode: Record<string, unknown> = {};
    const compTotals: number[] = [];
    const inLang = tasks.filter((t) => (t.language || "all") === lang);
    for (const comp of [...new Set(inLang.map((t) => t.competency || "general"))]) {
      const compNode: Record<string, unknown> = {};
      const inComp = inLang.filter((t) => (t.competency || "general") === comp);
      const members: number[] = [];
      const groups = new Map<string, number[]>();
      for (const t of inComp) {
        compNode[t.name] = t.metrics;
        if (t.main === undefined || !Number.isFinite(t.main)) continue;
        if (t.aggregationGroup && t.aggregationGroup !== t.name) {
          const g = groups.get(t.aggregationGroup) ?? [];
          g.push(t.main);
          groups.set(t.aggregationGroup, g);
        } else {
          members.push(t.main);
        }
      }
      for (const [group, scores] of groups) {
        const g = mean(scores);
        if (g === undefined) continue;
        compNode[group] = g;
        members.push(g);
      }
      let total = mean(members);
      const rolled = rollups[comp]?.(inComp);
      if (rolled) {
        Object.assign(compNode, rolled.entries);
        if (rolled.total !== undefined) total = rolled.total;
      }
      if (total !== undefined) {
        compNode.total = total;
        compTotals.push(total);
      }
      langNode[comp] = compNode;
    }
    const total = mean(compTotals);
    if (total !== undefined) {
      langNode.total = total;
      langTotals.push(total);
    }
    tree[lang] = langNode;
  }
  const overall = mean(langTotals);
  if (overall !== undefined) tree.total = overall;
  return tree;
}
