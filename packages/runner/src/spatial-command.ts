import { runSpatialCli } from "@yardstick/spatial";
import type { CliIO } from "./io.js";

/** `yardstick spatial ...`: generate, describe and audit the spatial benchmark. */
export function spatialCommand(argv: string[], io: CliIO): Promise<number> {
  return runSpatialCli(argv, { stdout: io.stdout, stderr: io.stderr });
}
