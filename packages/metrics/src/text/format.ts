/** Fixed-point formatting for human-readable summaries (not used in any computed value). */
export function formatFixed(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}
