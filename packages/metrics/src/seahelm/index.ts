import type { MetricV1 } from "@yardstick/core";
import { createSeahelmBbhExactMatchMetric } from "./bbh-exact-match.js";
import type { SeahelmMetricSettings } from "./chrf-plus-plus.js";
import { createSeahelmF1AccMetric } from "./f1-acc.js";
import { createSeahelmCweMetric, createSeahelmNiahMetric } from "./list-recall.js";
import { createSeahelmLiveCodeBenchMetric } from "./livecodebench.js";
import { createSeahelmLogprobMetric } from "./logprob.js";
import { createSeahelmCountdownMetric } from "./longproc/countdown.js";
import { createSeahelmHtmlToTsvMetric } from "./longproc/html-to-tsv.js";
import { createSeahelmPathTraversalMetric } from "./longproc/path-traversal.js";
import { createSeahelmTomTrackingMetric } from "./longproc/tom-tracking.js";
import { createSeahelmTravelPlanningMetric } from "./longproc/travel-planning.js";
import { createSeahelmMinimalPairsLogprobMetric, createSeahelmPragmaticLogprobMetric } from "./logprob-phenomena.js";
import { createSeahelmMathMetric } from "./math.js";
import { createSeahelmMinimalPairsMetric } from "./minimal-pairs.js";
import { createSeahelmPragmaticMetric } from "./pragmatic.js";
import { createSeahelmQaMetric } from "./qa.js";
import { createSeahelmSummarizationMetric } from "./summarization.js";
import { createSeahelmTranslationMetric } from "./translation.js";

export { createSeahelmBbhExactMatchMetric } from "./bbh-exact-match.js";
export {
  bootstrapPercentiles as seahelmBootstrapPercentiles,
  percentileLinear as numpyPercentileLinear,
  SEAHELM_BOOTSTRAP_SEED,
} from "./bootstrap.js";
export type { ChrfPlusPlus, SeahelmMetricSettings } from "./chrf-plus-plus.js";
export { balancedAccuracy as seahelmBalancedAccuracy, macroF1 as seahelmMacroF1 } from "./classification.js";
export { LEADERBOARD_BOOTSTRAPS, LEADERBOARD_SEED, type LeaderboardResult, type RunsTaskScores, SEA_LANGUAGES, leaderboardBootstrap } from "./leaderboard-bootstrap.js";
export { normalizeScore } from "./common.js";
export { createSeahelmF1AccMetric, seahelmF1AccOptionsSchema } from "./f1-acc.js";
export {
  aggregateLindsea,
  aggregatePragmatics,
  aggregatePragmaticsLogprobs,
  type LindseaParts,
  lindseaRollup,
  PRAGMATICS_PHENOMENA,
  type PragmaticsAggregate,
  type RollupTask,
} from "./lindsea-aggregation.js";
export { createSeahelmCweMetric, createSeahelmNiahMetric, seahelmListRecallOptionsSchema } from "./list-recall.js";
export { createSeahelmLiveCodeBenchMetric, seahelmLiveCodeBenchOptionsSchema } from "./livecodebench.js";
export { createSeahelmLogprobMetric } from "./logprob.js";
export { createSeahelmCountdownMetric, seahelmCountdownOptionsSchema } from "./longproc/countdown.js";
export { createSeahelmHtmlToTsvMetric, seahelmHtmlToTsvOptionsSchema } from "./longproc/html-to-tsv.js";
export { createSeahelmPathTraversalMetric, seahelmPathTraversalOptionsSchema } from "./longproc/path-traversal.js";
export { createSeahelmTomTrackingMetric, seahelmTomTrackingOptionsSchema } from "./longproc/tom-tracking.js";
export { createSeahelmTravelPlanningMetric, seahelmTravelPlanningOptionsSchema } from "./longproc/travel-planning.js";
export { createSeahelmMinimalPairsLogprobMetric, createSeahelmPragmaticLogprobMetric } from "./logprob-phenomena.js";
export { createSeahelmMathMetric, seahelmMathOptionsSchema, verifyMath as seahelmVerifyMath } from "./math.js";
export { createSeahelmMinimalPairsMetric, seahelmLabelTaskOptionsSchema } from "./minimal-pairs.js";
export { Mt19937 as NumpyMt19937 } from "@yardstick/core";
export { normalizeLabelAnswer as seahelmNormalizeLabel, normalizeQaAnswer as seahelmNormalizeQa } from "./normalize-text.js";
export { createSeahelmPragmaticMetric, type PhenomenonCounts } from "./pragmatic.js";
export { createSeahelmQaMetric, seahelmQaOptionsSchema } from "./qa.js";
export { rougeL as seahelmRougeL } from "./rouge-l.js";
export { rougeTokens as seahelmRougeTokens } from "./rouge-tokenize.js";
export { createSeahelmSummarizationMetric, seahelmSummarizationOptionsSchema } from "./summarization.js";
export {
  createSeahelmRefClipScoreMetric,
  type RefClipScoreItem,
  type RefClipScorePair,
  type RefClipScorer,
  seahelmRefClipScoreOptionsSchema,
} from "./refclipscore.js";
export {
  createSeahelmTranslationMetric,
  type MetricxItem,
  type MetricxScorer,
  metricxScoreOf,
  type SeahelmTranslationSettings,
  seahelmTranslationOptionsSchema,
  TRANSLATION_ID,
} from "./translation.js";

/** All SEA-HELM metrics; `chrf` replaces the chrF++ behind the `useChrf` option of translation/summarization. */
export function createSeahelmMetrics(settings: SeahelmMetricSettings = {}): Record<string, MetricV1> {
  const metrics = [
    createSeahelmF1AccMetric(),
    createSeahelmQaMetric(),
    createSeahelmTranslationMetric(settings),
    createSeahelmSummarizationMetric(settings),
    createSeahelmLogprobMetric(),
    createSeahelmMinimalPairsMetric(),
    createSeahelmPragmaticMetric(),
    createSeahelmMinimalPairsLogprobMetric(),
    createSeahelmPragmaticLogprobMetric(),
    createSeahelmNiahMetric(),
    createSeahelmCweMetric(),
    createSeahelmBbhExactMatchMetric(),
    createSeahelmMathMetric(),
    createSeahelmCountdownMetric(),
    createSeahelmHtmlToTsvMetric(),
    createSeahelmPathTraversalMetric(),
    createSeahelmTomTrackingMetric(),
    createSeahelmTravelPlanningMetric(),
    createSeahelmLiveCodeBenchMetric(),
  ];
  return Object.fromEntries(metrics.map((m) => [m.id, m]));
}

/** The seahelm metrics, keyed by registry id. */
export const seahelmMetrics: Record<string, MetricV1> = createSeahelmMetrics();
