import type { MetricV1 } from "@yardstick/core";
import { createSeahelmTranslationMetric, TRANSLATION_ID } from "@yardstick/metrics";
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
  /** Items per request (YARDSTICK_SCORING_BATCH_SIZE, default 32). */
  batchSize?: number;
  /** Time limit of one request (YARDSTICK_SCORING_TIMEOUT_MS, default 300000). */
  timeoutMs?: number;
}

/** SEA-HELM's MetricX judge model (nlg/translation config). */
export const SEAHELM_METRICX_MODEL = "google/metricx-24-hybrid-xxl-v2p6-bfloat16";

export function scoringSettingsFromEnv(env: NodeJS.ProcessEnv): ScoringSettings {
  const positiveInt = (v: string | undefined): number | undefined => (v && /^[1-9]\d*$/.test(v) ? Number(v) : undefined);
  const batchSize = positiveInt(env.YARDSTICK_SCORING_BATCH_SIZE);
  const timeoutMs = positiveInt(env.YARDSTICK_SCORING_TIMEOUT_MS);
  return {
    ...(env.YARDSTICK_METRICX_URL ? { metricxUrl: env.YARDSTICK_METRICX_URL } : {}),
    ...(env.YARDSTICK_METRICX_MODEL ? { metricxModel: env.YARDSTICK_METRICX_MODEL } : {}),
    ...(env.YARDSTICK_METRICX_API_KEY ? { metricxApiKey: env.YARDSTICK_METRICX_API_KEY } : {}),
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
  return { [TRANSLATION_ID]: translation };
}

/** The settings with `--metricx-url` (a flag wins over the environment); a URL that is not http(s) is a usage error. */
export function withMetricxUrl<T extends { scoring?: ScoringSettings }>(settings: T, url: string | undefined): T {
  if (url === undefined) return settings;
  if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new UsageError(`--metricx-url: expected an http(s) URL, e.g. http://127.0.0.1:8081/score (got ${JSON.stringify(url)})`);
  return { ...settings, scoring: { ...settings.scoring, metricxUrl: url } };
}
