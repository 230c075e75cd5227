import type { ModelProviderV1 } from "@yardstick/core";

/**
 * A provider with its own `generate` (and `loglikelihood` / `loglikelihoodBatch`, offered only when
 * `inner` has them) that is
 * otherwise `inner`: same id, model, cache identity, served-model description and label-set need,
 * so cache keys and the run fingerprint are the real provider's. `close` is passed through when
 * `ownsInner` (a stand-in that is dropped after a dry run does not close the real provider).
 */
export function decorateProvider(
  inner: ModelProviderV1,
  calls: {
    generate: ModelProviderV1["generate"];
    loglikelihood?: NonNullable<ModelProviderV1["loglikelihood"]>;
    loglikelihoodBatch?: NonNullable<ModelProviderV1["loglikelihoodBatch"]>;
  },
  ownsInner: boolean,
): ModelProviderV1 {
  const provider: ModelProviderV1 = {
    specVersion: "v1",
    id: inner.id,
    modelId: inner.modelId,
    identity: () => inner.identity(),
    generate: calls.generate,
    ...(inner.needsLabelSet ? { needsLabelSet: true } : {}),
  };
  if (inner.describeServedModel) provider.describeServedModel = (ctx) => inner.describeServedModel!(ctx);
  if (inner.loglikelihood && calls.loglikelihood) provider.loglikelihood = calls.loglikelihood;
  if (inner.loglikelihoodBatch && calls.loglikelihoodBatch) provider.loglikelihoodBatch = calls.loglikelihoodBatch;
  if (ownsInner && inner.close) provider.close = () => inner.close!();
  return provider;
}

/** The most output a request may be billed for: max_tokens (or `fallback`) × choices. */
export function maxOutputTokens(params: { maxTokens?: number; n?: number }, fallback: number): number {
  return (params.maxTokens ?? fallback) * (params.n ?? 1);
}
