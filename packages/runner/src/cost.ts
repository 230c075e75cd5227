/**
 * `yardstick run --dry-run / --max-cost / --prices`: the runner's side of @yardstick/engine's cost
 * module — load the price table, estimate the run, refuse an estimate over budget, guard the run.
 */
import { type BatchClient, ConfigError, type ModelProviderV1 } from "@yardstick/core";
import { loadPriceFile } from "@yardstick/config";
import {
  CostBudget,
  type EstimateSettings,
  type PriceTable,
  type RunEstimate,
  builtinPrices,
  estimateRun,
  extendPrices,
  findPrice,
  formatUsd,
  missingPriceError,
  withBatchBudget,
  withBudget,
} from "@yardstick/engine";

export interface CostOptions {
  prices: PriceTable;
  /** Estimate only: nothing is sent, the run store is not written. */
  dryRun?: boolean;
  /** Refuse a run estimated above this, and stop one before its recorded spend crosses it. */
  maxCostUsd?: number;
  /** Prices with the batch discount (`--batch`). */
  batch?: boolean;
  /** Called with the estimate (a dry run, or before a budgeted run starts). */
  onEstimate?: (estimate: RunEstimate) => void;
  /** The budget would be crossed by the next request: stop the run (the CLI aborts its signal, as on Ctrl-C). */
  onBudgetExceeded?: (message: string) => void;
}

/** The built-in prices, extended and overridden by the user's price file. */
export async function loadPrices(file: string | undefined): Promise<PriceTable> {
  if (file === undefined) return builtinPrices();
  return extendPrices(builtinPrices(), (await loadPriceFile(file)).models);
}

/**
 * Estimates the run (see `estimateRun`); under a budget, checks prices first and the estimate
 * against it, then returns the models wrapped so every request is paid from one budget.
 */
export async function planCost(
  cost: CostOptions,
  settings: Omit<EstimateSettings, "prices" | "batch">,
): Promise<{
  estimate: RunEstimate;
  model: ModelProviderV1;
  judgeModel: ModelProviderV1 | undefined;
  /** Under a budget: wraps a stage's batch client so its batches are paid from the same budget. */
  guardBatch?: (client: BatchClient, model: ModelProviderV1) => BatchClient;
}> {
  const judgeModel = settings.judge && settings.tasks.some((t) => t.judge) ? settings.judge.model : undefined;
  const models = judgeModel ? [settings.model, judgeModel] : [settings.model];
  const limit = cost.maxCostUsd;
  if (limit !== undefined) {
    for (const m of models) if (!findPrice(cost.prices, m.id, m.modelId)) throw missingPriceError(m.id, m.modelId);
  }
  const estimate = await estimateRun({ ...settings, prices: cost.prices, ...(cost.batch ? { batch: true } : {}) });
  cost.onEstimate?.(estimate);
  if (limit === undefined || cost.dryRun) return { estimate, model: settings.model, judgeModel };
  // The budget is the whole run's: what earlier sessions spent (as the run store records) counts.
  const spent = estimate.spentUsd ?? 0;
  if (estimate.costUsd !== undefined && spent + estimate.costUsd > limit) {
    const sofar = spent > 0 ? `has spent ${formatUsd(spent)} (as its run store records) and the rest ` : "";
    throw new ConfigError(
      `the run ${sofar}is estimated at ${formatUsd(estimate.costUsd)}, more than --max-cost ${limit} USD allows, so nothing was sent (yardstick run --dry-run shows the estimate; raise --max-cost, or narrow the run with --limit or --tasks)`,
    );
  }
  const budget = new CostBudget(limit, cost.onBudgetExceeded ?? (() => {}), spent);
  const guard = (m: ModelProviderV1) => withBudget(m, { budget, price: findPrice(cost.prices, m.id, m.modelId)!, ...(cost.batch ? { batch: true } : {}) });
  const guardBatch = (client: BatchClient, m: ModelProviderV1) => withBatchBudget(client, { budget, price: findPrice(cost.prices, m.id, m.modelId)!, batch: true });
  return { estimate, model: guard(settings.model), judgeModel: judgeModel ? guard(judgeModel) : undefined, guardBatch };
}

/** The dry run's report: per stage and task, what would be sent, its tokens, cost and time. */
export function formatEstimate(estimate: RunEstimate): string {
  const header = ["stage", "task", "requests", "input tokens", "output tokens", "output from", "cost", "time"];
  const rows: string[][] = [];
  for (const s of estimate.stages) {
    const priced = s.price ? (batchNote(estimate.batch, s.price.batchDiscount) ?? "") : "";
    for (const t of s.tasks) {
      rows.push([
        s.stage,
        t.task,
        String(t.requests),
        int(t.inputTokens),
        int(t.outputTokens),
        t.outputSource === "recorded" ? `recorded mean ${Math.round(t.recordedMeanOutput ?? 0)}` : t.outputSource === "max_tokens" ? "max_tokens" : "assumed",
        t.costUsd === undefined ? "no price" : formatUsd(t.costUsd),
        "",
      ]);
    }
    const time = s.seconds === undefined ? "unknown (no recorded latencies)" : `${duration(s.seconds)} at ${s.requestsPerSecond!.toFixed(1)} req/s`;
    rows.push([
      s.stage,
      `total (${s.model})`,
      String(s.requests),
      int(s.inputTokens),
      int(s.outputTokens),
      "",
      s.costUsd === undefined ? (s.requests === 0 ? formatUsd(0) : "no price") : `${formatUsd(s.costUsd)}${priced}`,
      s.requests === 0 ? "" : time,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = new Set([2, 3, 4]);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const fromStore = estimate.answering.reduce((a, t) => a + t.fromStore, 0);
  const fromCache = estimate.answering.reduce((a, t) => a + t.fromCache, 0);
  const lines = [
    "dry run: nothing was sent; the requests a run would send now (missing from the run store and the request cache):",
    line(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
    `total cost: ${estimate.costUsd === undefined ? "unknown (a model has no price; add it with --prices FILE)" : formatUsd(estimate.costUsd)}` +
      (estimate.spentUsd ? ` · spent already (recorded in the run store): ${formatUsd(estimate.spentUsd)}` : "") +
      ` · answered already: ${fromStore} sample(s) from the run store, ${fromCache} request(s) from the cache`,
    "input tokens: o200k BPE of the rendered requests; output tokens: the task's recorded mean when it has answers, else max_tokens",
    ...(estimate.inFlightRequests > 0
      ? [`${estimate.inFlightRequests} request(s) are in batches still in flight (paid for already; a rerun re-attaches to them): not counted`]
      : []),
    ...estimate.pending.map((p) => `not estimated: ${p}`),
  ];
  return lines.join("\n");
}

function batchNote(batch: boolean, discount: number | undefined): string | undefined {
  if (!batch) return undefined;
  return discount ? ` (batch -${Math.round(discount * 100)}%)` : " (no batch discount known)";
}

function int(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function duration(seconds: number): string {
  if (seconds < 90) return `~${Math.max(1, Math.round(seconds))}s`;
  if (seconds < 5400) return `~${Math.round(seconds / 60)} min`;
  return `~${(seconds / 3600).toFixed(1)} h`;
}
