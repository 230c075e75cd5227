#!/usr/bin/env node
// Bundles the yardstick CLI (dist/cli.js and everything it imports) into dist/bin/, one chunk per
// lazily loaded command, so that a command loads a handful of files instead of ~500 modules: on the
// 2-core reference machine `yardstick run` of a 10-sample task went from 0.92 s to 0.55 s and
// `yardstick --help` from 0.16 s to 0.09 s (see bench/BENCHMARKS.md, "Start-up"). The packages stay
// importable one by one (dist/ of each); only the `yardstick` bin uses the bundle.
//
// Left outside the bundle, loaded from their own packages at run time:
// - native modules (better-sqlite3, a dependency of this package for that reason) and playwright-core (large, and only `view`/tests use a browser);
// - code that starts workers or serves files relative to its own file: `@yardstick/spatial/cli`
//   (its worker threads), `@yardstick/labeling` (public/), `@yardstick/testing` (the dev server's
//   fixtures). Other packages find their shipped files with `packageFile` (@yardstick/core).
import { chmodSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(pkgDir, "dist", "bin");
const EXTERNAL = [/^better-sqlite3$/, /^playwright-core(\/|$)/, /^@yardstick\/spatial\/cli$/, /^@yardstick\/labeling$/, /^@yardstick\/testing(\/|$)/];

rmSync(outDir, { recursive: true, force: true });
await build({
  input: { yardstick: join(pkgDir, "dist", "cli.js") },
  platform: "node",
  // undici's Pool and util without the rest of undici (see undici-subset.mjs), and without HTTP/2
  // (see http2-unused.mjs).
  resolve: { alias: { undici: join(pkgDir, "scripts", "undici-subset.mjs"), "node:http2": join(pkgDir, "scripts", "http2-unused.mjs") } },
  external: EXTERNAL,
  logLevel: "warn",
  output: { dir: outDir, format: "esm", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
});
// The bin runs as a program (npm sets this on install; a rebuild of dist/bin must keep it).
chmodSync(join(outDir, "yardstick.js"), 0o755);
