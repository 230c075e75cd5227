/**
 * Word segmentation for scripts written without spaces. Upstream uses pythainlp `newmm` (Thai) and
 * jieba (Chinese); we use ICU's dictionary-based word breaker via `Intl.Segmenter`, which splits
 * most text the same way but not always (different dictionaries), so scores can differ slightly.
 */
const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(lang: string): Intl.Segmenter {
  let seg = segmenters.get(lang);
  if (seg === undefined) {
    seg = new Intl.Segmenter(lang, { granularity: "word" });
    segmenters.set(lang, seg);
  }
  return seg;
}

/** Every segment, whitespace runs included (pythainlp keeps whitespace tokens by default). */
export function segmentWords(text: string, lang: string): string[] {
  const out: string[] = [];
  for (const s of segmenterFor(lang).segment(text)) out.push(s.segment);
  return out;
}

/** Languages whose QA text is segmented before token F1. */
export const SEGMENTED_QA_LANGS = new Set(["th", "zh"]);
