import { builtinMetrics, runScoreCli } from "@yardstick/metrics";
import { spatialMetrics } from "@yardstick/spatial";
import type { CliIO } from "./io.js";

/** `yardstick score`: score prediction/reference files with any text-pair metric. */
export function scoreCommand(argv: string[], io: CliIO): Promise<number> {
  return runScoreCli(argv, { stdout: io.stdout, stderr: io.stderr }, { ...builtinMetrics, ...spatialMetrics });
}
