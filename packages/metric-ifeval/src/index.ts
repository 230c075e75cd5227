import type { PluginModule } from "@yardstick/core";
import { createIfevalMetric } from "./ifeval-metric.js";

export { CHECKERS, INSTRUCTION_IDS, type InstructionId, isInstructionId, RELATIONS, type Relation } from "./checkers/index.js";
export type { Checker, CheckerContext, Kwargs } from "./checkers/index.js";
export { CONSTRAINED_OPTIONS } from "./checkers/constrained-options.js";
export { createIfevalMetric, IFEVAL_METRIC_ID, type IfevalMetric, type IfevalSettings, NO_WORD_COUNT_LANGUAGES } from "./ifeval-metric.js";
export { type InstructionRow, readInstructionRow } from "./instruction-row.js";
export { detectLanguage, type LanguageVerdict, languageMatches } from "./language/detect-language.js";
export { detectLatinLanguage, type LatinVerdict } from "./language/latin-detector.js";
export { LATIN_LANGUAGES } from "./language/latin-profiles.js";
export { detectScript, type ScriptVerdict } from "./language/scripts.js";
export { IFEVAL_OPTION_DEFAULTS, type IfevalOptions, parseIfevalOptions } from "./options.js";
export type { CheckerBreakdown, RowOutcome } from "./summarize.js";

/** Loaded by the runner for `--plugin @yardstick/metric-ifeval` or a config `plugins:` entry. */
export const plugins: PluginModule = { metrics: { ifeval: createIfevalMetric() } };

export default plugins;
