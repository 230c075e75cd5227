import {
  ApiCallError,
  type BatchClient,
  type BatchItem,
  type BatchResult,
  type LoglikelihoodRequest,
  type ModelCallContext,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
} from "@yardstick/core";
import { decorateProvider, maxOutputTokens } from "./decorate-provider.js";
import { type ModelPrice, costOf } from "./price-table.js";
import { ASSUMED_OUTPUT_TOKENS } from "./estimate-run.js";
import { countRequestInputTokens, countTextTokens } from "./token-count.js";

/**
 * A spending limit of a whole run, shared by every provider of it (the judged model and the judge),
 * starting from what the run store records as spent by earlier sessions. Each request
 * reserves its worst case (its input plus its max_tokens) before it is sent and settles at its
 * recorded usage; a request whose worst case would take spent + reserved past the limit is not sent,
 * and the run is stopped. So the recorded spend never crosses the limit, whatever is in flight.
 */
export class CostBudget {
  spentUsd = 0;
  reservedUsd = 0;
  private stopped = false;

  constructor(
    readonly limitUsd: number,
    /** Called once, when the first request is refused: the run stops (as on Ctrl-C). */
    private readonly onExceeded: (message: string) => void,
    /** Spent already: what the run store records earlier sessions of this run paid for. */
    spentUsd = 0,
  ) {
    this.spentUsd = spentUsd;
  }

  /** Reserves `usd` if it fits under the limit; false (and the run stopped) when it does not. */
  reserve(usd: number): boolean {
    if (this.spentUsd + this.reservedUsd + usd > this.limitUsd) {
      if (!this.stopped) {
        this.stopped = true;
        this.onExceeded(
          `--max-cost ${this.limitUsd} USD: stopping before it is crossed (the run has spent ${formatUsd(this.spentUsd)}, the next request could cost up to ${formatUsd(usd)}); rerun with a higher --max-cost to continue`,
        );
      }
      return false;
    }
    this.reservedUsd += usd;
    return true;
  }

  settle(reservedUsd: number, actualUsd: number): void {
    this.reservedUsd -= reservedUsd;
    this.spentUsd += actualUsd;
  }
}

export function formatUsd(usd: number): string {
  return `$${usd < 0.01 && usd > 0 ? usd.toPrecision(2) : usd.toFixed(2)}`;
}

export interface BudgetGuardSettings {
  budget: CostBudget;
  price: ModelPrice;
  batch?: boolean;
}

/** Wraps a provider so each of its requests is paid from `budget` (see `CostBudget`). */
export function withBudget(inner: ModelProviderV1, settings: BudgetGuardSettings): ModelProviderV1 {
  const { budget, price } = settings;
  const batch = settings.batch === true;
  const refused = (usd: number) =>
    new ApiCallError(`not sent: it could cost up to ${formatUsd(usd)}, past --max-cost ${budget.limitUsd} USD`, { retryable: false, kind: "other" });

  // Echo scoring reports no usage: the prompt (and at most one generated token) is what it costs.
  const loglikelihoodUsd = (requests: readonly LoglikelihoodRequest[]) =>
    requests.reduce((a, r) => a + costOf(price, countTextTokens(r.context + r.continuation), 1, batch), 0);
  return decorateProvider(
    inner,
    {
      async generate(request: ModelRequest, ctx?: ModelCallContext): Promise<ModelResponse> {
        const inputTokens = countRequestInputTokens(request);
        const worst = costOf(price, inputTokens, maxOutputTokens(request.params, ASSUMED_OUTPUT_TOKENS), batch);
        if (!budget.reserve(worst)) throw refused(worst);
        let actual = worst;
        try {
          const response = await inner.generate(request, ctx);
          actual = response.usage
            ? costOf(price, response.usage.promptTokens, response.usage.completionTokens, batch)
            : costOf(price, inputTokens, response.choices.reduce((a, c) => a + countTextTokens(c.text) + countTextTokens(c.reasoningContent ?? ""), 0), batch);
          return response;
        } finally {
          // A failed call may still have been billed: it is counted at its worst case.
          budget.settle(worst, actual);
        }
      },
      async loglikelihood(request: LoglikelihoodRequest, ctx?: ModelCallContext) {
        const usd = loglikelihoodUsd([request]);
        if (!budget.reserve(usd)) throw refused(usd);
        try {
          return await inner.loglikelihood!(request, ctx);
        } finally {
          budget.settle(usd, usd);
        }
      },
      async loglikelihoodBatch(requests: readonly LoglikelihoodRequest[], ctx?: ModelCallContext) {
        const usd = loglikelihoodUsd(requests);
        if (!budget.reserve(usd)) throw refused(usd);
        try {
          return await inner.loglikelihoodBatch!(requests, ctx);
        } finally {
          budget.settle(usd, usd);
        }
      },
    },
    true,
  );
}

/**
 * Wraps a batch client so each batch is paid from `budget`: a submission reserves the worst case
 * of all its requests (input plus max_tokens, at the batch price) and is refused whole, before any
 * batch is created, when that would cross the limit; results settle at their recorded usage.
 */
export function withBatchBudget(inner: BatchClient, settings: BudgetGuardSettings): BatchClient {
  const { budget, price } = settings;
  const batch = settings.batch ?? true;
  // Reserved worst case per batch and custom id, until its result settles it.
  const reserved = new Map<string, Map<string, number>>();
  const settled = new Set<string>();
  const worstOf = (item: BatchItem) => costOf(price, countRequestInputTokens(item.request), maxOutputTokens(item.request.params, ASSUMED_OUTPUT_TOKENS), batch);
  const settleResult = (worst: number, result: BatchResult) => {
    const usage = result.ok ? result.response.usage : undefined;
    // A request that failed in a batch is not billed; one without usage is counted at its worst case.
    budget.settle(worst, result.ok ? (usage ? costOf(price, usage.promptTokens, usage.completionTokens, batch) : worst) : 0);
  };
  return {
    api: inner.api,
    limits: inner.limits,
    async submit(items, ctx) {
      const worst = new Map(items.map((item) => [item.customId, worstOf(item)]));
      const total = [...worst.values()].reduce((a, b) => a + b, 0);
      if (!budget.reserve(total)) {
        throw new ApiCallError(`not sent: this batch could cost up to ${formatUsd(total)}, past --max-cost ${budget.limitUsd} USD`, { retryable: false, kind: "other" });
      }
      let created: string[] = [];
      try {
        const handles = await inner.submit(items, {
          ...ctx,
          onCreated: (handle) => {
            reserved.set(handle.id, new Map(handle.customIds.map((id) => [id, worst.get(id) ?? 0])));
            created = created.concat(handle.customIds);
            return ctx?.onCreated?.(handle);
          },
        });
        return handles;
      } finally {
        // What no batch holds was not sent: give its reservation back.
        const held = new Set(created);
        let unsent = 0;
        for (const [id, usd] of worst) if (!held.has(id)) unsent += usd;
        budget.settle(unsent, 0);
      }
    },
    status: (id, ctx) => inner.status(id, ctx),
    async results(id, ctx) {
      const results = await inner.results(id, ctx);
      const open = reserved.get(id);
      for (const [customId, result] of results) {
        const place = `${id}\u0000${customId}`;
        if (settled.has(place)) continue; // results read twice are paid once
        settled.add(place);
        // A batch re-attached after a restart reserved nothing here: its spend still counts.
        const worst = open?.get(customId) ?? 0;
        open?.delete(customId);
        settleResult(worst, result);
      }
      // The batch has ended: requests without a result never ran.
      for (const usd of open?.values() ?? []) budget.settle(usd, 0);
      reserved.delete(id);
      return results;
    },
    async cancel(id, ctx) {
      await inner.cancel(id, ctx);
    },
    close: () => inner.close(),
  };
}
