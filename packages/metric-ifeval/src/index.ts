import type { PluginModule } from "@yardstick/core";
import { createIfevalEnglishMetric } from "./english/english-metric.js";
import { createIfevalMetric } from "./ifeval-metric.js";

export { CHECKERS, INSTRUCTION_IDS, type InstructionId, isInstructionId, RELATIONS, type Relation } from "./checkers/index.js";
export type { Checker, CheckerContext, Kwargs } from "./checkers/index.js";
export { ENGLISH_CHECKERS, ENGLISH_INSTRUCTION_IDS, type EnglishInstructionId, isEnglishInstructionId } from "./english/checkers.js";
export {
  createIfevalEnglishMetric,
  followInstructions,
  IFEVAL_EN_METRIC_ID,
  type IfevalEnglishMetric,
  type IfevalEnglishSettings,
  looseVariants,
} from "./english/english-metric.js";
export { type EnglishInstruction, readEnglishInstructions } from "./english/english-row.js";
export { countWords, splitIntoSentences } from "./english/sentences.js";
export { CONSTRAINED_OPTIONS } from "./checkers/constrained-options.js";
export { createIfevalMetric, IFEVAL_METRIC_ID, type IfevalMetric, type IfevalSettings, NO_WORD_COUNT_LANGUAGES } from "./ifeval-metric.js";
export { type InstructionRow, readInstructionRow } from "./instruction-row.js";
export { detectLanguage, type LanguageVerdict, languageMatches } from "./language/detect-language.js";
export { detectLatinLanguage, type LatinVerdict } from "./language/latin-detector.js";
export { LATIN_LANGUAGES } from "./language/latin-profiles.js";
export { detectScript, type ScriptVerdict } from "./language/scripts.js";
export { IFEVAL_OPTION_DEFAULTS, type IfevalOptions, parseIfevalOptions } from "./options.js";
export type { CheckerBreakdown, RowOutcome } from "./summarize.js";

/**
 * Loaded by the runner for `--plugin @yardstick/metric-ifeval` or a config `plugins:` entry, and
 * found by name for either id (`ifeval:en` is looked up as this package too).
 */
export const plugins: PluginModule = { metrics: { ifeval: createIfevalMetric(), "ifeval:en": createIfevalEnglishMetric() } };

export default plugins;
