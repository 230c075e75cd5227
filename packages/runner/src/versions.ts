import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const PACKAGES = ["core", "config", "dataloaders", "models", "postprocessors", "metrics", "engine", "runner", "spatial"];

/** Versions of the installed @yardstick packages, recorded in run.json. */
export function packageVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const out: Record<string, string> = { node: process.version };
  for (const name of PACKAGES) {
    try {
      const entry = require.resolve(`@yardstick/${name}`);
      const pkgPath = entry.replace(/dist\/index\.js$/, "package.json");
      out[`@yardstick/${name}`] = (JSON.parse(readFileSync(pkgPath, "utf8")) as { version: string }).version;
    } catch {
      // A package that is not installed is simply not listed.
    }
  }
  return out;
}
