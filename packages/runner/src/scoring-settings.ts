import type { MetricV1 } from "@yardstick/core";
import { metricIdForClass } from "@yardstick/config";
import { createSeahelmRefClipScoreMetric, createSeahelmTranslationMetric, TRANSLATION_ID } from "@yardstick/metrics";
import { UsageError } from "./args.js";
import { createScoringEndpoint } from "./scoring-endpoint.js";

/**
 * Scoring endpoints: servers the user runs for scores that need a neural model yardstick does not
 * ship. MetricX-24 (SEA-HELM translation) is the one wired so far; see `scoring-endpoint.ts` for the
 * request and response shape.
 */
export interface ScoringSettings {
  /** MetricX-24 endpoint (`--metricx-url`, YARDSTICK_METRICX_URL). */
  metricxUrl?: string;
  /** The MetricX checkpoint named in each request (YARDSTICK_METRICX_MODEL; default SEA-HELM's). */
  metricxModel?: string;
  /** Bearer token for the endpoint (YARDSTICK_METRICX_API_KEY). */
  metricxApiKey?: string;
  /** RefCLIPScore endpoint (`--refclipscore-url`, YARDSTICK_REFCLIPSCORE_URL): SEA-HELM's xm3600 captioning. */
  refclipscoreUrl?: string;
  /** The CLIP checkpoint named in each request (YARDSTICK_REFCLIPSCORE_MODEL; default SEA-HELM's). */
  refclipscoreModel?: string;
  /** Bearer token for that endpoint (YARDSTICK_REFCLIPSCORE_API_KEY). */
  refclipscoreApiKey?: string;
  /** Items per request (YARDSTICK_SCORING_BATCH_SIZE, default 32). */
  batchSize?: number;
  /** Time limit of one request (YARDSTICK_SCORING_TIMEOUT_MS, default 300000). */
  timeoutMs?: number;
}

/** SEA-HELM's MetricX judge model (nlg/translation config). */
export const SEAHELM_METRICX_MODEL = "google/metricx-24-hybrid-xxl-v2p6-bfloat16";
/** SEA-HELM's OpenCLIP judge model (vision/xm3600 config). */
export const SEAHELM_REFCLIPSCORE_MODEL = "laion/CLIP-ViT-H-14-frozen-xlm-roberta-large-laion5B-s13B-b90k";
/** The metric id SEA-HELM configs give RefClipScoreMetric (registered only with an endpoint). */
export const REFCLIPSCORE_METRIC_ID = metricIdForClass("RefClipScoreMetric");

export function scoringSettingsFromEnv(env: NodeJS.ProcessEnv): ScoringSettings {
  const positiveInt = (v: string | undefined): number | undefined => (v && /^[1-9]\d*$/.test(v) ? Number(v) : undefined);
  const batchSize = positiveInt(env.YARDSTICK_SCORING_BATCH_SIZE);
  const timeoutMs = positiveInt(env.YARDSTICK_SCORING_TIMEOUT_MS);
  return {
    ...(env.YARDSTICK_METRICX_URL ? { metricxUrl: env.YARDSTICK_METRICX_URL } : {}),
    ...(env.YARDSTICK_METRICX_MODEL ? { metricxModel: env.YARDSTICK_METRICX_MODEL } : {}),
    ...(env.YARDSTICK_METRICX_API_KEY ? { metricxApiKey: env.YARDSTICK_METRICX_API_KEY } : {}),
    ...(env.YARDSTICK_REFCLIPSCORE_URL ? { refclipscoreUrl: env.YARDSTICK_REFCLIPSCORE_URL } : {}),
    ...(env.YARDSTICK_REFCLIPSCORE_MODEL ? { refclipscoreModel: env.YARDSTICK_REFCLIPSCORE_MODEL } : {}),
    ...(env.YARDSTICK_REFCLIPSCORE_API_KEY ? { refclipscoreApiKey: env.YARDSTICK_REFCLIPSCORE_API_KEY } : {}),
    ...(batchSize ? { batchSize } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  };
}

/** The metrics that score through an endpoint, configured (or saying why they cannot: no --metricx-url). */
export function scoringMetrics(settings: ScoringSettings): Record<string, MetricV1> {
  const translation = settings.metricxUrl
    ? createSeahelmTranslationMetric({
        metricx: createScoringEndpoint({
          url: settings.metricxUrl,
          metric: "metricx-24",
          model: settings.metricxModel ?? SEAHELM_METRICX_MODEL,
          ...(settings.metricxApiKey ? { apiKey: settings.metricxApiKey } : {}),
          ...(settings.batchSize ? { batchSize: settings.batchSize } : {}),
          ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
        }),
      })
    : createSeahelmTranslationMetric({ metricxMissingReason: "no --metricx-url" });
  return { [TRANSLATION_ID]: translation, ...(settings.refclipscoreUrl ? { [REFCLIPSCORE_METRIC_ID]: refClipScoreMetric(settings, settings.refclipscoreUrl) } : {}) };
}

/** RefCLIPScore through its endpoint: each item's `clipscore` (image–caption) and `ref_similarity` (caption–references). */
function refClipScoreMetric(settings: ScoringSettings, url: string): MetricV1 {
  const endpoint = createScoringEndpoint({
    url,
    metric: "refclipscore",
    model: settings.refclipscoreModel ?? SEAHELM_REFCLIPSCORE_MODEL,
    ...(settings.refclipscoreApiKey ? { apiKey: settings.refclipscoreApiKey } : {}),
    ...(settings.batchSize ? { batchSize: settings.batchSize } : {}),
    ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
  });
  return createSeahelmRefClipScoreMetric(REFCLIPSCORE_METRIC_ID, {
    name: url,
    score: async (items, signal) =>
      (await endpoint.scoreFields(items, ["clipscore", "ref_similarity"], signal)).map((s) => ({ clipscore: s.clipscore!, refSimilarity: s.ref_similarity! })),
  });
}

/** The settings with `--metricx-url` and `--refclipscore-url` (a flag wins over the environment); a URL that is not http(s) is a usage error. */
export function withScoringUrls<T extends { scoring?: ScoringSettings }>(settings: T, urls: { metricx?: string | undefined; refclipscore?: string | undefined }): T {
  const scoring: ScoringSettings = { ...settings.scoring };
  for (const [flag, url, key] of [
    ["metricx-url", urls.metricx, "metricxUrl"],
    ["refclipscore-url", urls.refclipscore, "refclipscoreUrl"],
  ] as const) {
    if (url === undefined) continue;
    if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new UsageError(`--${flag}: expected an http(s) URL, e.g. http://127.0.0.1:8081/score (got ${JSON.stringify(url)})`);
    scoring[key] = url;
  }
  return { ...settings, scoring };
}
