import type { Kwargs } from "./arguments.js";

export interface CheckerContext {
  /** The task language (SEA-HELM's `self.lang`), e.g. "id". */
  language: string;
  /** Reproduce Python's `\w` (no combining marks) in word counts and word boundaries. */
  pythonWordChars: boolean;
  /** Reproduce upstream's response_language check, which accepts Malay for "id" but not Indonesian for "ms". */
  upstreamResponseLanguage: boolean;
  /** The language identifier used by the response_language checker. */
  detectLanguage: (text: string) => string;
}

/** One instruction checker: whether `response` follows the instruction described by `kwargs`. */
export type Checker = (response: string, kwargs: Kwargs, ctx: CheckerContext) => boolean;
