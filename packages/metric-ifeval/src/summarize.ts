import type { MetricResult } from "@yardstick/core";

/** The outcome of one scored row. */
export interface RowOutcome {
  sampleId: string;
  subcategory: string;
  /** The checker passed. */
  followed: boolean;
  /** The detected response language is the expected one. */
  correctLanguage: boolean;
  detectedLanguage: string;
}

export interface CheckerBreakdown {
  count: number;
  /** Rows whose checker passed. */
  pass: number;
  /** Rows whose checker passed and that are in the expected language. */
  langNormalizedPass: number;
}

/**
 * Task scores in SEA-HELM's shape: accuracies on a 0–100 scale, `correct_language_rate` as a
 * fraction (as upstream reports it), and per-checker results in `details`.
 */
export function summarizeOutcomes(rows: readonly RowOutcome[], skipped: readonly string[], languages: readonly string[]): MetricResult {
  const count = rows.length;
  const pass = rows.filter((r) => r.followed).length;
  const langOk = rows.filter((r) => r.correctLanguage).length;
  const both = rows.filter((r) => r.followed && r.correctLanguage).length;

  const checkers: Record<string, CheckerBreakdown> = {};
  const detected: Record<string, number> = {};
  for (const row of rows) {
    const entry = (checkers[row.subcategory] ??= { count: 0, pass: 0, langNormalizedPass: 0 });
    entry.count++;
    if (row.followed) entry.pass++;
    if (row.followed && row.correctLanguage) entry.langNormalizedPass++;
    detected[row.detectedLanguage] = (detected[row.detectedLanguage] ?? 0) + 1;
  }
  const sortedCheckers = Object.fromEntries(Object.entries(checkers).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    scores: {
      overall_lang_normalized_acc: (100 * both) / count,
      overall_acc: (100 * pass) / count,
      correct_language_rate: langOk / count,
      overall_pass: pass,
      overall_count: count,
    },
    perSample: rows.map((r) => ({
      sampleId: r.sampleId,
      scores: {
        overall_lang_normalized_acc: r.followed && r.correctLanguage ? 1 : 0,
        instruction_followed: r.followed ? 1 : 0,
        correct_language: r.correctLanguage ? 1 : 0,
      },
    })),
    details: {
      // Upstream's `subcategories`: the share of rows whose checker passed, per instruction.
      subcategories: Object.fromEntries(Object.entries(sortedCheckers).map(([id, c]) => [id, c.pass / c.count])),
      checkers: sortedCheckers,
      detectedLanguages: Object.fromEntries(Object.entries(detected).sort(([a], [b]) => (a < b ? -1 : 1))),
      languages: [...languages].sort(),
      skippedCount: skipped.length,
      skippedSampleIds: [...skipped],
    },
  };
}
