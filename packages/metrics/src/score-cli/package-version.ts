import { readFileSync } from "node:fs";

/**
 * The version of @yardstick/metrics, read from its package.json at run time (two levels up from
 * both src/score-cli and dist/score-cli), so the score signature names the code that computed it.
 */
export function metricsPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name?: string; version?: string };
  if (pkg.name !== "@yardstick/metrics" || typeof pkg.version !== "string") throw new Error("cannot find the package.json of @yardstick/metrics");
  return pkg.version;
}
