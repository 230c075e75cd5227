import { readFileSync } from "node:fs";
import { packageFile } from "@yardstick/core";

/**
 * The version of @yardstick/metrics, read from its package.json at run time, so the score
 * signature names the code that computed it.
 */
export function metricsPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile(import.meta.url, "@yardstick/metrics", "package.json"), "utf8")) as { name?: string; version?: string };
  if (pkg.name !== "@yardstick/metrics" || typeof pkg.version !== "string") throw new Error("cannot find the package.json of @yardstick/metrics");
  return pkg.version;
}
