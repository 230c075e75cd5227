// The subpath loads the command alone (the package index also loads zod and yaml).
import { runSpatialCli } from "@yardstick/spatial/cli";
import type { CliIO } from "./io.js";

/** `yardstick spatial ...`: generate, describe and audit the spatial benchmark. */
export function spatialCommand(argv: string[], io: CliIO): Promise<number> {
  return runSpatialCli(argv, { stdout: io.stdout, stderr: io.stderr });
}
