import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * A file shipped inside a package (`prices.json`, a worker script, a `public/` folder), found through
 * Node's package resolution from `fromUrl` (the caller's `import.meta.url`) rather than relative to
 * the caller's own file: the same code then works unbundled (the package resolves itself by name)
 * and inside yardstick's bundled CLI, whose chunks live in another folder. The package must export
 * `./package.json`.
 */
export function packageFile(fromUrl: string | URL, packageName: string, relativePath: string): string {
  return join(dirname(createRequire(fromUrl).resolve(`${packageName}/package.json`)), relativePath);
}
