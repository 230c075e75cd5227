import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { packageFile } from "@yardstick/core";

let cached: Promise<string> | undefined;

/**
 * Chart.js's minified UMD build, read from node_modules to be inlined into the page (it defines
 * the global `Chart`). Its source-map comment is dropped: the file must not ask for anything.
 */
export function chartLibrarySource(): Promise<string> {
  cached ??= (async () => {
    // Resolved from this package's folder: the bundled CLI runs this code from another one.
    const entry = createRequire(packageFile(import.meta.url, "@yardstick/report", "package.json")).resolve("chart.js");
    const source = await readFile(join(dirname(entry), "chart.umd.min.js"), "utf8");
    return source.replace(/\/\/# sourceMappingURL=\S+\s*$/, "");
  })();
  return cached;
}
