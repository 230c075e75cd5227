import { normalizeLabelAnswer } from "./normalize-text.js";

export const NULL_LABEL = "null";

export interface LabelMapper {
  /** Maps a prediction to the label it names, or to the null label. */
  map(prediction: string): string;
  readonly labels: readonly string[];
}

/**
 * Builds the prediction → label lookup. By default a prediction matches a label when both
 * normalise to the same text; `upstreamKeys` keys labels by `label.lower()` only, as upstream does
 * (they differ for labels with edge punctuation or repeated spaces, e.g. "(A)").
 */
export function createLabelMapper(labels: readonly string[], opts: { upstreamKeys?: boolean; nullLabel?: string } = {}): LabelMapper {
  const nullLabel = opts.nullLabel ?? NULL_LABEL;
  const table = new Map<string, string>();
  // Later labels win on a key clash, like a Python dict comprehension.
  for (const label of labels) table.set(opts.upstreamKeys ? label.toLowerCase() : normalizeLabelAnswer(label), label);
  return {
    labels,
    map: (prediction) => table.get(normalizeLabelAnswer(prediction)) ?? nullLabel,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Upstream's label-aware extraction: `tag[\s*]*(L1|L2|…)+`, case-insensitive, first match, last
 * repetition of the group, stripped; the raw text when nothing matches (or, with the `*` quantifier
 * that MinimalPairs/PragmaticReasoning use, when the group matched nothing). The tag is escaped (upstream
 * splices it in unescaped) and labels are tried longest first (upstream uses set order).
 */
export function extractLabelAfterTag(
  raw: string,
  tag: string,
  labels: readonly string[],
  quantifier: "+" | "*" = "+",
): string {
  if (labels.length === 0) return raw.trim();
  const alternatives = [...labels].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).map(escapeRegExp);
  const re = new RegExp(`${escapeRegExp(tag)}[\\s*]*(${alternatives.join("|")})${quantifier}`, "iu");
  const m = re.exec(raw);
  return (m?.[1] ?? raw).trim();
}
