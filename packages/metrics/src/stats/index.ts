/**
 * Statistics for evaluation results: score uncertainty (bootstrap CIs), paired run comparison
 * (paired bootstrap, McNemar, multiple-comparison corrections) and inter-rater agreement.
 */
export {
  type AgreementItem,
  type AgreementOptions,
  type AgreementPair,
  type AgreementReport,
  agreementReport,
  type NominalBasis,
  nominalValue,
  type Rating,
} from "./agreement.js";
export { bootstrapMeans, percentileInterval, resampledMeans, sortedQuantile } from "./bootstrap.js";
export { cohensKappa, type CohensKappaOptions } from "./cohens-kappa.js";
export {
  type ComparisonResult,
  type ComparisonRow,
  type ComparisonTest,
  type CompareRunsOptions,
  compareRuns,
  type RunItems,
  runItemsSchema,
  type SkippedTask,
} from "./compare-runs.js";
export { fleissKappa } from "./fleiss-kappa.js";
export { formatComparisonTable } from "./format-comparison.js";
export {
  type KrippendorffAlphaOptions,
  type KrippendorffLevel,
  krippendorffAlpha,
  type ReliabilityRow,
} from "./krippendorff-alpha.js";
export type { Label } from "./labels.js";
export { type McNemarOptions, type McNemarResult, mcnemar, mcnemarFromCounts } from "./mcnemar.js";
export type { BootstrapOptions } from "./options.js";
export { benjaminiHochberg, holmBonferroni } from "./p-adjust.js";
export { type PairedBootstrapResult, pairedBootstrap } from "./paired-bootstrap.js";
// The seeded generator lives in @yardstick/core; re-exported for existing importers.
export { createRng, createSplitMix64, hashString32, type Rng, seedState } from "@yardstick/core";
export { binomialHalfCdf, chiSquareSurvival, gammaQ, lnGamma } from "./special-functions.js";
export { runItemsFromSampleScores, summarizePerSample } from "./sample-scores.js";
export { type ScoreSummary, summarize } from "./summarize.js";
