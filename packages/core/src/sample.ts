/** A sample (one evaluation item) as produced by a dataloader. */
export interface Sample {
  /** Stable identifier, unique within its task. */
  id: string;
  /** Per-turn template variables (SEA-HELM's `prompts`); single-turn tasks have one entry. */
  prompts: Record<string, unknown>[];
  /** Gold answer: a label, a list of references, or anything the metric understands. */
  label?: unknown;
  metadata?: Record<string, unknown>;
  /** The original row, for metrics and prompt builders that need other columns. */
  raw: Record<string, unknown>;
}
