// `npm ci` must accept the committed lockfile on any platform (scripts/setup.mjs installs a fresh
// checkout with it). `npm ci --dry-run` runs npm's own check that package.json files and the
// lockfile agree, without touching node_modules.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

it("npm ci accepts package-lock.json", () => {
  const r = spawnSync("npm", ["ci", "--dry-run", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, encoding: "utf8" });
  const errors = r.stderr
    .split("\n")
    .filter((l) => l.startsWith("npm error"))
    .join("\n");
  expect(errors).toBe("");
  expect(r.status).toBe(0);
}, 120_000);

it("package-lock.json lists biome's and turbo's binaries for other platforms", () => {
  const r = spawnSync(process.execPath, [join(root, "scripts/complete-lockfile.mjs"), "--check"], { cwd: root, encoding: "utf8" });
  expect(r.stdout).toContain("the lockfile lists every platform binary");
  expect(r.status).toBe(0);
});
