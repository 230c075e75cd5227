#!/usr/bin/env node
// After a build: make the workspace packages' bins (yardstick, yardstick-dev-server, ...) executable
// and linked in node_modules/.bin. npm links bins at install time only when their target exists,
// and on a fresh clone dist/ is built after the install.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const binDir = join(root, "node_modules", ".bin");
mkdirSync(binDir, { recursive: true });
for (const folder of ["packages", "examples"]) {
  for (const name of readdirSync(join(root, folder))) {
    const pkgPath = join(root, folder, name, "package.json");
    if (!existsSync(pkgPath)) continue;
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
    const bins = typeof pkg.bin === "string" ? { [pkg.name.split("/").pop()]: pkg.bin } : (pkg.bin ?? {});
    for (const [bin, target] of Object.entries(bins)) {
      const file = join(root, folder, name, target);
      if (!existsSync(file)) continue;
      chmodSync(file, 0o755);
      const link = join(binDir, bin);
      try {
        if (lstatSync(link)) unlinkSync(link);
      } catch {
        // no link yet
      }
      symlinkSync(relative(binDir, file), link);
    }
  }
}
