import { existsSync } from "node:fs";
import { ConfigError } from "@yardstick/core";

/** Refuses run folders none of which exists: a mistyped path would give an empty report or a misleading error. */
export function requireSomeRun(runs: readonly string[], verb: string): void {
  if (!runs.some((dir) => existsSync(dir))) throw new ConfigError(`nothing to ${verb}: ${runs.join(", ")} ${runs.length > 1 ? "do" : "does"} not exist`);
}
